package restserver

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/grocerydata/grocery/grocery"
)

// createWebhook answers POST /b2b/webhooks: 201 with the endpoint, its
// signing secret (shown this once) and its Location.
func (s *server) createWebhook(w http.ResponseWriter, r *http.Request) error {
	var in grocery.WebhookInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	hook, err := s.svc.CreateWebhook(r.Context(), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/b2b/webhooks/"+hook.ID)
	return writeJSON(w, http.StatusCreated, hook)
}

// listWebhooks answers GET /b2b/webhooks: the caller's endpoints.
func (s *server) listWebhooks(w http.ResponseWriter, r *http.Request) error {
	res, err := s.svc.ListWebhooks(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// webhook answers GET /b2b/webhooks/{id}: one of the caller's endpoints;
// another account's is not found.
func (s *server) webhook(w http.ResponseWriter, r *http.Request) error {
	hook, err := s.svc.Webhook(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, hook)
}

// updateWebhook answers PATCH /b2b/webhooks/{id}: the fields given
// change; 200 with the endpoint.
func (s *server) updateWebhook(w http.ResponseWriter, r *http.Request) error {
	var in grocery.WebhookUpdate
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	hook, err := s.svc.UpdateWebhook(r.Context(), mux.Vars(r)["id"], in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, hook)
}

// deleteWebhook answers DELETE /b2b/webhooks/{id}: 204.
func (s *server) deleteWebhook(w http.ResponseWriter, r *http.Request) error {
	if err := s.svc.DeleteWebhook(r.Context(), mux.Vars(r)["id"]); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// testWebhook answers POST /b2b/webhooks/{id}/test: 202 with the ping's
// delivery, queued.
func (s *server) testWebhook(w http.ResponseWriter, r *http.Request) error {
	d, err := s.svc.TestWebhook(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, d)
}

// webhookDeliveries answers GET /b2b/webhooks/{id}/deliveries[?limit=&offset=]:
// the endpoint's deliveries, newest first.
func (s *server) webhookDeliveries(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	var in grocery.WebhookDeliveriesInput
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.WebhookDeliveries(r.Context(), mux.Vars(r)["id"], in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, res.Limit, res.Offset)
	return writeJSON(w, http.StatusOK, res)
}

// redeliverWebhook answers POST
// /b2b/webhooks/{id}/deliveries/{delivery_id}/redeliver: 202 with the
// delivery, pending again.
func (s *server) redeliverWebhook(w http.ResponseWriter, r *http.Request) error {
	v := mux.Vars(r)
	d, err := s.svc.RedeliverWebhook(r.Context(), v["id"], v["delivery_id"])
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, d)
}

module github.com/grocerydata/grocery

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	go.etcd.io/bbolt v1.5.0
)

require golang.org/x/sys v0.45.0 // indirect

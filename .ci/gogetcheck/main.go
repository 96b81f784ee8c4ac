// Command gogetcheck checks the go get line of README.md the way an
// embedder meets it: the release it names is a tag of the repository, and
// a module of its own that runs that go get builds and runs the lean
// example of the release (Open, BuildDemo, LookupProduct) against it.
//
// A release is a tag, v0.1.0, and a line of the file releases beside
// this one, which names the tag's commit: a clone that carries no tags
// (a branch fetched on its own) still checks the release, and one that
// does checks that the tag is the commit recorded.
//
// The module is served from a file proxy made from that commit with git
// archive (as a module proxy serves a tag: the .info, .mod and .zip of
// the version), in front of the machine's GOPROXY for the dependencies,
// with a module cache of its own.
//
//	go run ./.ci/gogetcheck -root .
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	flag.Parse()
	if err := check(*root); err != nil {
		fmt.Fprintln(os.Stderr, "gogetcheck:", err)
		os.Exit(1)
	}
}

func check(root string) error {
	module, version, err := readmeLine(root)
	if err != nil {
		return err
	}
	rev, err := releaseCommit(root, version)
	if err != nil {
		return fmt.Errorf("README.md names %s@%s: %v", module, version, err)
	}
	commitTime, err := git(root, "log", "-1", "--format=%cI", rev)
	if err != nil {
		return fmt.Errorf("README.md names %s@%s, commit %s, which this clone does not hold: %v", module, version, rev, err)
	}
	tmp, err := os.MkdirTemp("", "gogetcheck-")
	if err != nil {
		return err
	}
	defer func() {
		exec.Command("chmod", "-R", "u+w", tmp).Run() // the module cache is read-only
		os.RemoveAll(tmp)
	}()
	proxy := filepath.Join(tmp, "proxy")
	if err := writeProxy(root, proxy, module, version, rev, strings.TrimSpace(commitTime)); err != nil {
		return err
	}
	// The embedder's module: the release's lean example as its main package.
	app := filepath.Join(tmp, "app")
	if err := os.MkdirAll(app, 0o755); err != nil {
		return err
	}
	mainGo, err := git(root, "show", rev+":examples/lean/main.go")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(app, "main.go"), []byte(mainGo), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(app, "go.mod"), []byte("module example.com/embedder\n"), 0o644); err != nil {
		return err
	}
	upstream, err := goEnv("GOPROXY")
	if err != nil {
		return err
	}
	env := append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+upstream,
		"GONOSUMDB="+module, // the tag is not in the public checksum database
		"GOMODCACHE="+filepath.Join(tmp, "modcache"),
		"GOFLAGS=-mod=mod",
	)
	line := "go get " + module + "@" + version
	start := time.Now()
	for _, args := range [][]string{{"get", module + "@" + version}, {"build", "-o", "lean", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = app, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	fi, err := os.Stat(filepath.Join(app, "lean"))
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(app, "lean"), "-upc", "067000378089", "-province", "ON")
	cmd.Dir = app
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("the lean example built from %s: %v", version, err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	if !strings.HasPrefix(first, "067000378089 ") || !strings.Contains(string(out), "$") {
		return fmt.Errorf("the lean example built from %s printed %q: want the barcode's offers in ON", version, out)
	}
	fmt.Printf("%s: built the lean example in %v (%.1f MB), which printed %q and %d offers\n",
		line, time.Since(start).Round(time.Millisecond), float64(fi.Size())/(1<<20), first, strings.Count(string(out), "\n")-1)
	return nil
}

// goGetLine matches the README's go get line.
var goGetLine = regexp.MustCompile(`go get ([a-z0-9./-]+)@(v[0-9]+\.[0-9]+\.[0-9]+)\b`)

// readmeLine returns the module and version of the go get line of
// README.md, checking the module is go.mod's.
func readmeLine(root string) (module, version string, err error) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return "", "", err
	}
	m := goGetLine.FindSubmatch(readme)
	if m == nil {
		return "", "", errors.New("README.md has no go get line of a release (go get MODULE@vX.Y.Z)")
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", "", err
	}
	first, _, _ := bytes.Cut(gomod, []byte("\n"))
	if want := "module " + string(m[1]); string(bytes.TrimSpace(first)) != want {
		return "", "", fmt.Errorf("README.md's go get line names %s: go.mod says %q", m[1], first)
	}
	return string(m[1]), string(m[2]), nil
}

// releaseCommit returns the commit of release version: the one the file
// releases records, which the tag of that name, where the clone has it,
// must be.
func releaseCommit(root, version string) (string, error) {
	recorded, err := os.ReadFile(filepath.Join(root, ".ci", "gogetcheck", "releases"))
	if err != nil {
		return "", err
	}
	var rev string
	for _, line := range strings.Split(string(recorded), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == version {
			rev = f[1]
		}
	}
	if rev == "" {
		return "", fmt.Errorf(".ci/gogetcheck/releases has no line for %s (want %q)", version, version+" COMMIT")
	}
	tagged, err := git(root, "rev-parse", "-q", "--verify", "refs/tags/"+version+"^{commit}")
	if err != nil {
		return rev, nil // no tag in this clone: the record decides
	}
	if tagged = strings.TrimSpace(tagged); tagged != rev {
		return "", fmt.Errorf("tag %s is commit %s, .ci/gogetcheck/releases says %s", version, tagged, rev)
	}
	return rev, nil
}

// writeProxy writes the file proxy of module at version, made from commit
// rev of the repository at root.
func writeProxy(root, proxy, module, version, rev, commitTime string) error {
	dir := filepath.Join(proxy, filepath.FromSlash(module), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	info, err := json.Marshal(struct{ Version, Time string }{version, commitTime})
	if err != nil {
		return err
	}
	gomod, err := git(root, "show", rev+":go.mod")
	if err != nil {
		return err
	}
	files := map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": info,
		version + ".mod":  []byte(gomod),
		version + ".zip":  nil,
	}
	if files[version+".zip"], err = moduleZip(root, module, version, rev); err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// moduleZip returns the module zip of version, commit rev: its regular
// files under module@version/, as git archive gives them. (The repository holds one
// module and no vendor directory: nothing is left out.)
func moduleZip(root, module, version, rev string) ([]byte, error) {
	cmd := exec.Command("git", "-C", root, "archive", "--format=tar", rev)
	tarball, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git archive %s: %v", rev, err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	tr := tar.NewReader(bytes.NewReader(tarball))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if path.Base(h.Name) == "go.mod" && h.Name != "go.mod" || strings.HasPrefix(h.Name, "vendor/") {
			return nil, fmt.Errorf("%s in %s: the module zip would leave a module or vendor directory out", h.Name, version)
		}
		w, err := zw.Create(module + "@" + version + "/" + h.Name)
		if err != nil {
			return nil, err
		}
		if _, err := io.Copy(w, tr); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func git(root string, args ...string) (string, error) {
	out, err := exec.Command("git", append([]string{"-C", root}, args...)...).Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(exit.Stderr))
	}
	return string(out), err
}

func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	return strings.TrimSpace(string(out)), err
}

package awscli

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// cp, mv, rm and sync: the files a command works on are listed (a local
// directory walked in the order S3 lists keys, or a prefix listed), kept
// by --include and --exclude, compared by sync, and each is transferred
// with the requests s3transfer makes for it: PutObject, GetObject,
// CopyObject, DeleteObject. The CLI prints one line per file; it does so
// from many threads, in the order the transfers end, where this prints
// them in the order of the listing.

// Home is the absolute path of the current directory, as the CLI sees
// it: the terminal's home folder.
const Home = "/home/student"

// s3File is one file or object a transfer works on (awscli's FileInfo).
type s3File struct {
	src, dest         string // a local absolute path, or "bucket/key"
	srcType, destType string // "local" or "s3"
	compareKey        string
	size              int64
	lastUpdate        time.Time
	etag              string
	storageClass      string
	operation         string // upload, download, copy, delete
}

// localAbs is os.path.abspath of a local path.
func localAbs(p string) string {
	if strings.HasPrefix(p, "~/") || p == "~" {
		p = Home + strings.TrimPrefix(p, "~")
	}
	if !strings.HasPrefix(p, "/") {
		p = Home + "/" + p
	}
	return path.Clean(p)
}

// relativePath is the CLI's relative_path: the directory relative to the
// current one, then the name ("./f.txt", "dir/a.txt").
func relativePath(abs string) string {
	dir, base := path.Split(abs)
	dir = strings.TrimSuffix(dir, "/")
	rel := "."
	switch {
	case dir == Home:
	case strings.HasPrefix(dir, Home+"/"):
		rel = dir[len(Home)+1:]
	default:
		up := strings.Count(strings.Trim(Home, "/"), "/") + 1
		rel = strings.Repeat("../", up) + strings.TrimPrefix(dir, "/")
	}
	return rel + "/" + base
}

// transfer runs cp, mv, rm or sync.
func (s *s3cmd) transfer() (int, error) {
	list, _ := s.args["paths"].([]any)
	var paths []string
	for _, p := range list {
		paths = append(paths, textOf(p))
	}
	dirOp := s.flag("dir_op") || s.name == "sync"
	typ := ""
	for _, p := range paths {
		if strings.HasPrefix(p, "s3://") {
			typ += "s3"
		} else {
			typ += "local"
		}
	}
	allowed := map[string][]string{"s3s3": {"cp", "sync", "mv"}, "s3local": {"cp", "sync", "mv"}, "locals3": {"cp", "sync", "mv"}, "s3": {"mb", "rb", "rm"}}
	if !contains(allowed[typ], s.name) {
		return 0, &cliError{"usage: aws s3 " + s.name + " " + s.usage + "\nError: Invalid argument type"}
	}
	for i, p := range paths {
		if strings.HasPrefix(p, "s3://") {
			if _, key := findBucketKey(p[5:]); key == "" && !strings.HasSuffix(p, "/") {
				paths[i] = p + "/"
			}
		}
	}
	src, dest := paths[0], paths[len(paths)-1]
	if src == "-" || dest == "-" {
		if s.name != "cp" || dirOp {
			return 0, &cliError{"Streaming currently is only compatible with non-recursive cp commands"}
		}
		return s.stream(typ, src, dest)
	}
	if s.name == "mv" && typ == "s3s3" && samePath(src, dest) {
		return 0, &cliError{"Cannot mv a file onto itself: " + src + " - " + dest}
	}
	files := s.cli.env.Files
	if typ == "locals3" {
		if _, err := files.Stat(localAbs(src)); err != nil {
			return 0, &cliError{"The user-provided path " + src + " does not exist."}
		}
	}
	if typ == "s3local" && dirOp {
		if _, err := files.Stat(localAbs(dest)); err != nil {
			if err := files.MkdirAll(localAbs(dest)); err != nil {
				return 0, &cliError{osErrorText(err, dest)}
			}
		}
	}
	t := &transferRun{s: s, typ: typ, dirOp: dirOp, src: src, dest: dest}
	t.operation = map[string]string{"locals3": "upload", "s3s3": "copy", "s3local": "download", "s3": "delete"}[typ]
	return t.run()
}

func samePath(src, dest string) bool {
	if src == dest {
		return true
	}
	if strings.HasSuffix(dest, "/") {
		return src == dest+path.Base(src)
	}
	return false
}

// transferRun is one run of cp, mv, rm or sync.
type transferRun struct {
	s          *s3cmd
	typ        string
	dirOp      bool
	src, dest  string
	operation  string
	failed     int
	warned     int
	srcFormat  location
	destFormat location
	useSrcName bool
}

// location is a formatted source or destination.
type location struct {
	path string
	typ  string
}

// format is the CLI's FileFormat: the paths a file generator starts from,
// and whether the destination takes each source's name.
func (t *transferRun) format(src, dest string) (location, location, bool) {
	f := func(p string) (location, bool) {
		if strings.HasPrefix(p, "s3://") {
			p = p[5:]
			if t.dirOp {
				if !strings.HasSuffix(p, "/") {
					p += "/"
				}
				return location{p, "s3"}, true
			}
			return location{p, "s3"}, strings.HasSuffix(p, "/")
		}
		abs := localAbs(p)
		info, err := t.s.cli.env.Files.Stat(abs)
		if err == nil && info.IsDir() || t.dirOp {
			return location{strings.TrimSuffix(abs, "/") + "/", "local"}, true
		}
		if strings.HasSuffix(p, "/") {
			return location{abs + "/", "local"}, true
		}
		return location{abs, "local"}, false
	}
	s, _ := f(src)
	d, use := f(dest)
	return s, d, use
}

func (t *transferRun) run() (int, error) {
	t.srcFormat, t.destFormat, t.useSrcName = t.format(t.src, t.dest)
	var items []*s3File
	srcFiles, err := t.generate(t.srcFormat, t.destFormat, t.useSrcName, t.operation)
	if err != nil {
		return t.fatal(err)
	}
	srcFiles = t.filter(srcFiles)
	if t.s.name == "sync" {
		revSrc, revDest, revUse := t.format(t.dest, t.src)
		destFiles, err := t.generate(revSrc, revDest, revUse, "")
		if err != nil {
			return t.fatal(err)
		}
		destFiles = t.filterWith(destFiles, revSrc, t.srcFormat)
		items = t.compare(srcFiles, destFiles)
	} else {
		items = srcFiles
	}
	for _, f := range items {
		t.submit(f)
	}
	switch {
	case t.failed > 0:
		return 1, nil
	case t.warned > 0:
		return 2, nil
	}
	return 0, nil
}

// fatal is an error of the listing: printed, exit status 1.
func (t *transferRun) fatal(err error) (int, error) {
	if _, ok := err.(*cliError); !ok {
		return 0, err
	}
	t.s.cli.stderr.WriteString("fatal error: " + err.Error() + "\n")
	return 1, nil
}

func (t *transferRun) warn(p, message string) {
	if t.s.flag("quiet") {
		t.warned++
		return
	}
	t.s.cli.stderr.WriteString("warning: Skipping file " + p + ". " + message + "\n")
	t.warned++
}

// generate is the CLI's FileGenerator: the files under a source, with
// where each goes.
func (t *transferRun) generate(src, dest location, useSrcName bool, operation string) ([]*s3File, error) {
	var out []*s3File
	add := func(p string, size int64, modified time.Time, etag, class string) {
		f := &s3File{src: p, srcType: src.typ, destType: dest.typ, size: size, lastUpdate: modified, etag: etag,
			storageClass: class, operation: operation}
		sep := "/"
		var rel string
		if t.dirOp {
			rel = p[len(src.path):]
		} else {
			rel = p[strings.LastIndex(p, sep)+1:]
		}
		f.compareKey = rel
		if useSrcName {
			f.dest = dest.path + rel
		} else {
			f.dest = dest.path
		}
		out = append(out, f)
	}
	if src.typ == "local" {
		return out, t.listFiles(src.path, add)
	}
	return out, t.listObjects(src.path, operation, add)
}

// listFiles walks a local path: its files, depth first, by name as S3
// would order their keys.
func (t *transferRun) listFiles(p string, add func(string, int64, time.Time, string, string)) error {
	files := t.s.cli.env.Files
	if !t.dirOp {
		info, err := files.Stat(p)
		if err != nil {
			t.warn(p, "File does not exist.")
			return nil
		}
		add(p, info.Size(), info.ModTime(), "", "")
		return nil
	}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := files.ReadDir(dir)
		if err != nil {
			t.warn(dir, "File does not exist.")
			return
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() {
				n += "/"
			}
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			full := strings.TrimSuffix(dir, "/") + "/" + n
			if strings.HasSuffix(n, "/") {
				walk(full)
				continue
			}
			info, err := files.Stat(full)
			if err != nil {
				t.warn(full, "File does not exist.")
				continue
			}
			add(full, info.Size(), info.ModTime(), "", "")
		}
	}
	walk(p)
	return nil
}

// listObjects lists the objects under an S3 path, or heads the one object
// it names.
func (t *transferRun) listObjects(s3path, operation string, add func(string, int64, time.Time, string, string)) error {
	bucket, prefix := findBucketKey(s3path)
	if !t.dirOp && prefix != "" {
		if operation == "delete" {
			add(s3path, 0, time.Time{}, "", "")
			return nil
		}
		head := dict("Bucket", bucket, "Key", prefix)
		if p := t.s.args["request_payer"]; p != nil {
			head.Set("RequestPayer", p)
		}
		res, err := t.s.operation("head-object", head, "")
		if err != nil {
			if ce, ok := err.(*cliError); ok && strings.HasPrefix(ce.msg, "An error occurred (404)") {
				return &cliError{`An error occurred (404) when calling the HeadObject operation: Key "` + prefix + `" does not exist`}
			}
			return err
		}
		size, _ := res.Get("ContentLength")
		lm, _ := res.Get("LastModified")
		etag, _ := res.Get("ETag")
		class, _ := res.Get("StorageClass")
		n, _ := size.(int64)
		add(s3path, n, parseHTTPTime(pyStr(lm)), textOrEmpty(etag), textOrEmpty(class))
		return nil
	}
	params := dict("Bucket", bucket, "Prefix", prefix)
	if p := t.s.args["request_payer"]; p != nil {
		params.Set("RequestPayer", p)
	}
	return t.s.paginate("list-objects-v2", params, t.s.pageSize(), func(page *Dict) error {
		contents, _ := page.Get("Contents")
		list, _ := contents.([]any)
		for _, o := range list {
			d, _ := o.(*Dict)
			k, _ := d.Get("Key")
			size, _ := d.Get("Size")
			lm, _ := d.Get("LastModified")
			etag, _ := d.Get("ETag")
			class, _ := d.Get("StorageClass")
			key := pyStr(k)
			n, _ := size.(int64)
			full := bucket + "/" + key
			switch {
			case n == 0 && strings.HasSuffix(key, "/"):
				if operation == "delete" {
					add(full, n, parseISOTime(pyStr(lm)), textOrEmpty(etag), textOrEmpty(class))
				}
			case !t.dirOp && s3path != full:
			default:
				add(full, n, parseISOTime(pyStr(lm)), textOrEmpty(etag), textOrEmpty(class))
			}
		}
		return nil
	})
}

func textOrEmpty(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

func parseISOTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func parseHTTPTime(s string) time.Time {
	t, _ := time.Parse(time.RFC1123, s)
	return t
}

// filter applies --include and --exclude to the source's files.
func (t *transferRun) filter(files []*s3File) []*s3File {
	return t.filterWith(files, t.srcFormat, t.destFormat)
}

// filterWith applies the filters with patterns rooted at both ends, as
// the CLI does: the last pattern that matches a file decides.
func (t *transferRun) filterWith(files []*s3File, src, dest location) []*s3File {
	filters, _ := t.s.args["filters"].([]any)
	if len(filters) == 0 {
		return files
	}
	srcRoot, destRoot := t.filterRoot(t.src), t.filterRoot(t.dest)
	var out []*s3File
	for _, f := range files {
		include := true
		for _, fl := range filters {
			pair, _ := fl.([]any)
			kind := strings.TrimLeft(pyStr(pair[0]), "-")
			pattern := pyStr(pair[1])
			for _, root := range []string{srcRoot, destRoot} {
				if fnmatch(f.src, joinRoot(root, pattern)) {
					include = kind == "include"
				}
			}
		}
		if include {
			out = append(out, f)
		}
	}
	return out
}

// filterRoot is where a location's patterns are rooted.
func (t *transferRun) filterRoot(p string) string {
	if strings.HasPrefix(p, "s3://") {
		bucket, key := findBucketKey(p[5:])
		if !t.dirOp && !strings.HasSuffix(key, "/") {
			parts := strings.Split(key, "/")
			key = strings.Join(parts[:len(parts)-1], "/")
		}
		return bucket + "/" + key
	}
	if t.dirOp {
		return localAbs(p)
	}
	return localAbs(path.Dir(p))
}

// joinRoot is os.path.join(root, pattern).
func joinRoot(root, pattern string) string {
	if strings.HasPrefix(pattern, "/") {
		return pattern
	}
	if root == "" || strings.HasSuffix(root, "/") {
		return root + pattern
	}
	return root + "/" + pattern
}

// fnmatch is Python's fnmatch: * matches anything (slashes too), ?
// one character, [...] one of a class ([!...] one not in it).
func fnmatch(name, pattern string) bool {
	n, p := []rune(name), []rune(pattern)
	var match func(i, j int) bool
	match = func(i, j int) bool {
		for j < len(p) {
			switch p[j] {
			case '*':
				for k := len(n); k >= i; k-- {
					if match(k, j+1) {
						return true
					}
				}
				return false
			case '?':
				if i >= len(n) {
					return false
				}
			case '[':
				end, ok := classEnd(p, j)
				if !ok {
					if i >= len(n) || n[i] != '[' {
						return false
					}
					break
				}
				if i >= len(n) || !inClass(n[i], p[j+1:end]) {
					return false
				}
				i, j = i+1, end+1
				continue
			default:
				if i >= len(n) || n[i] != p[j] {
					return false
				}
			}
			i, j = i+1, j+1
		}
		return i == len(n)
	}
	return match(0, 0)
}

// classEnd is the index of the ] that ends the class opened at j.
func classEnd(p []rune, j int) (int, bool) {
	k := j + 1
	if k < len(p) && p[k] == '!' {
		k++
	}
	if k < len(p) && p[k] == ']' {
		k++
	}
	for k < len(p) && p[k] != ']' {
		k++
	}
	return k, k < len(p)
}

// inClass reports whether r is in the class body ("!a-z", "abc").
func inClass(r rune, body []rune) bool {
	negate := len(body) > 0 && body[0] == '!'
	if negate {
		body = body[1:]
	}
	in := false
	for k := 0; k < len(body); k++ {
		if k+2 < len(body) && body[k+1] == '-' {
			if body[k] <= r && r <= body[k+2] {
				in = true
			}
			k += 2
		} else if body[k] == r {
			in = true
		}
	}
	return in != negate
}

// compare is sync's Comparator: the source's files the destination lacks
// or has older or of another size, and, with --delete, the destination's
// files the source lacks.
func (t *transferRun) compare(src, dest []*s3File) []*s3File {
	var out []*s3File
	i, j := 0, 0
	for i < len(src) || j < len(dest) {
		switch {
		case j >= len(dest) || i < len(src) && src[i].compareKey < dest[j].compareKey:
			out = append(out, src[i])
			i++
		case i >= len(src) || src[i].compareKey > dest[j].compareKey:
			if t.s.flag("delete") {
				d := dest[j]
				d.operation = "delete"
				out = append(out, d)
			}
			j++
		default:
			if t.shouldSync(src[i], dest[j]) {
				out = append(out, src[i])
			}
			i++
			j++
		}
	}
	return out
}

// shouldSync is the strategy for a file at both ends: another size, or a
// source newer (for a download, a destination older) than the other end;
// --size-only looks at the size alone, --exact-timestamps wants the same
// time for a download.
func (t *transferRun) shouldSync(src, dest *s3File) bool {
	if src.size != dest.size {
		return true
	}
	if t.s.flag("size_only") {
		return false
	}
	delta := dest.lastUpdate.Sub(src.lastUpdate)
	switch src.operation {
	case "upload", "copy":
		return delta < 0
	case "download":
		if t.s.flag("exact_timestamps") {
			return delta != 0
		}
		return delta > 0
	}
	return false
}

// submit transfers one file and prints its line.
func (t *transferRun) submit(f *s3File) {
	kind := f.operation
	if t.s.name == "mv" {
		kind = "move"
	}
	where := t.describe(f)
	if f.operation == "download" || f.operation == "copy" {
		if strings.HasPrefix(f.storageClass, "GLACIER") || f.storageClass == "DEEP_ARCHIVE" {
			if !t.s.flag("force_glacier_transfer") {
				if !t.s.flag("ignore_glacier_warnings") {
					t.s.cli.stderr.WriteString("warning: Skipping file s3://" + f.src + ". Object is of storage class GLACIER. Unable to perform " +
						f.operation + " operations on GLACIER objects. You must restore the object to be able to perform the operation. See aws s3 " +
						f.operation + " help for additional parameter options to ignore or force these transfers.\n")
					t.warned++
				}
				return
			}
		}
	}
	if t.s.flag("dryrun") {
		if !t.s.flag("quiet") {
			t.s.cli.stdout.WriteString("(dryrun) " + kind + ": " + where + "\n")
		}
		return
	}
	if err := t.do(f); err != nil {
		t.failed++
		if !t.s.flag("quiet") {
			t.s.cli.stderr.WriteString(kind + " failed: " + where + " " + err.Error() + "\n")
		}
		return
	}
	if !t.s.flag("quiet") && !t.s.flag("only_show_errors") {
		t.s.cli.stdout.WriteString(kind + ": " + where + "\n")
	}
}

// describe is "src to dest" as the CLI prints it.
func (t *transferRun) describe(f *s3File) string {
	show := func(p, typ string) string {
		if typ == "s3" {
			return "s3://" + p
		}
		return relativePath(p)
	}
	if f.operation == "delete" {
		return show(f.src, f.srcType)
	}
	return show(f.src, f.srcType) + " to " + show(f.dest, f.destType)
}

// do makes one file's requests.
func (t *transferRun) do(f *s3File) error {
	files := t.s.cli.env.Files
	switch f.operation {
	case "upload":
		data, err := files.ReadFile(f.src)
		if err != nil {
			return &cliError{osErrorText(err, f.src)}
		}
		bucket, key := findBucketKey(f.dest)
		params := dict("Bucket", bucket, "Key", key, "Body", data)
		t.objectParams(params, f.src, false)
		if _, err := t.s.operation("put-object", params, ""); err != nil {
			return err
		}
		if t.s.name == "mv" {
			if err := files.Remove(f.src); err != nil {
				return &cliError{osErrorText(err, f.src)}
			}
		}
	case "download":
		bucket, key := findBucketKey(f.src)
		params := dict("Bucket", bucket, "Key", key)
		if v := t.s.args["request_payer"]; v != nil {
			params.Set("RequestPayer", v)
		}
		if v := t.s.str("checksum_mode"); v != "" {
			params.Set("ChecksumMode", v)
		}
		if dir := path.Dir(f.dest); dir != "/" {
			if _, err := files.Stat(dir); err != nil {
				if err := files.MkdirAll(dir); err != nil {
					return &cliError{"Could not create directory " + dir + ": " + osErrorText(err, dir)}
				}
			}
		}
		if _, err := t.s.operation("get-object", params, f.dest); err != nil {
			return err
		}
		if ch, ok := files.(interface {
			Chtimes(string, time.Time) error
		}); ok {
			_ = ch.Chtimes(f.dest, f.lastUpdate.Truncate(time.Second))
		}
		if t.s.name == "mv" {
			if _, err := t.s.operation("delete-object", dict("Bucket", bucket, "Key", key), ""); err != nil {
				return err
			}
		}
	case "copy":
		bucket, key := findBucketKey(f.dest)
		srcBucket, srcKey := findBucketKey(f.src)
		params := dict("Bucket", bucket, "Key", key, "CopySource", dict("Bucket", srcBucket, "Key", srcKey))
		t.objectParams(params, srcKey, true)
		if _, err := t.s.operation("copy-object", params, ""); err != nil {
			return err
		}
		if t.s.name == "mv" {
			if _, err := t.s.operation("delete-object", dict("Bucket", srcBucket, "Key", srcKey), ""); err != nil {
				return err
			}
		}
	case "delete":
		if f.srcType == "local" {
			if err := files.Remove(f.src); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return &cliError{osErrorText(err, f.src)}
			}
			return nil
		}
		bucket, key := findBucketKey(f.src)
		params := dict("Bucket", bucket, "Key", key)
		if v := t.s.args["request_payer"]; v != nil {
			params.Set("RequestPayer", v)
		}
		if _, err := t.s.operation("delete-object", params, ""); err != nil {
			return err
		}
	}
	return nil
}

// objectParams adds the options of a PutObject or CopyObject, as the
// CLI's RequestParamsMapper does, and the content type it guesses from a
// name.
func (t *transferRun) objectParams(params *Dict, name string, copying bool) {
	a := t.s.args
	for _, p := range [][2]string{{"acl", "ACL"}, {"storage_class", "StorageClass"}, {"website_redirect", "WebsiteRedirectLocation"},
		{"content_type", "ContentType"}, {"cache_control", "CacheControl"}, {"content_disposition", "ContentDisposition"},
		{"content_encoding", "ContentEncoding"}, {"content_language", "ContentLanguage"}, {"expires", "Expires"}} {
		if v, ok := a.str(p[0]); ok && v != "" {
			params.Set(p[1], v)
		}
	}
	if copying {
		if v := t.s.str("metadata_directive"); v != "" {
			params.Set("MetadataDirective", v)
		}
	}
	if md, ok := a["metadata"].(*Dict); ok && md.Len() > 0 {
		params.Set("Metadata", md)
		if copying {
			if _, set := params.Get("MetadataDirective"); !set {
				params.Set("MetadataDirective", "REPLACE")
			}
		}
	}
	if v := t.s.str("sse"); v != "" {
		params.Set("ServerSideEncryption", v)
	}
	if v := t.s.str("sse_kms_key_id"); v != "" {
		params.Set("SSEKMSKeyId", v)
	}
	if v := a["request_payer"]; v != nil {
		params.Set("RequestPayer", v)
	}
	if v := t.s.str("checksum_algorithm"); v != "" {
		params.Set("ChecksumAlgorithm", v)
	}
	guess, _ := a["guess_mime_type"].(bool)
	if guess && t.s.str("content_type") == "" {
		if ct := guessContentType(name); ct != "" {
			params.Set("ContentType", ct)
		}
	}
}

// stream is cp with "-": an object printed to the standard output.
func (s *s3cmd) stream(typ, src, dest string) (int, error) {
	if typ != "s3local" || src == "-" {
		return 0, &cliError{"MiniS3's terminal has no standard input to upload from."}
	}
	bucket, key := findBucketKey(src[5:])
	res, err := s.operation("get-object", dict("Bucket", bucket, "Key", key), "")
	if err != nil {
		s.cli.stderr.WriteString("download failed: s3://" + bucket + "/" + key + " to - " + err.Error() + "\n")
		return 1, nil
	}
	body, _ := res.Get("Body")
	data, _ := body.([]byte)
	s.cli.stdout.Write(data)
	return 0, nil
}

// mimeTypes are the types Python's mimetypes module guesses (with the
// system's /etc/mime.types of the Debian machines the CLI runs on), for
// the extensions files of a course have.
var mimeTypes = map[string]string{
	".txt": "text/plain", ".json": "application/json", ".csv": "text/csv", ".md": "text/markdown",
	".html": "text/html", ".htm": "text/html", ".xml": "application/xml", ".png": "image/png",
	".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml",
	".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".pdf": "application/pdf",
	".zip": "application/zip", ".tar": "application/x-tar", ".bin": "application/octet-stream",
	".sh": "text/x-sh", ".py": "text/x-python", ".wasm": "application/wasm", ".mp4": "video/mp4",
	".mp3": "audio/mpeg", ".wav": "audio/x-wav", ".webp": "image/webp", ".ico": "image/vnd.microsoft.icon",
	".tsv": "text/tab-separated-values", ".sql": "application/sql", ".c": "text/x-csrc", ".h": "text/x-chdr",
	".java": "text/x-java", ".webm": "video/webm", ".ogg": "audio/ogg", ".rtf": "application/rtf",
}

// guessContentType is mimetypes.guess_type(name)[0]: the type of the
// extension, after any compression suffix.
func guessContentType(name string) string {
	base := path.Base(name)
	if strings.HasSuffix(strings.ToLower(base), ".tgz") {
		return "application/x-tar"
	}
	for _, enc := range []string{".gz", ".bz2", ".xz", ".br", ".Z"} {
		if strings.HasSuffix(base, enc) {
			base = strings.TrimSuffix(base, enc)
			break
		}
	}
	ext := path.Ext(base)
	if ct, ok := mimeTypes[ext]; ok {
		return ct
	}
	return mimeTypes[strings.ToLower(ext)]
}

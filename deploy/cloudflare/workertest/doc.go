// Package workertest tests MiniS3's hosted deployment (deploy/cloudflare)
// as a class uses it: the worker runs under Miniflare (miniflare.mjs, npm
// packages pinned by package-lock.json, installed by make test), with no
// Cloudflare account and no network, and the tests drive it with the AWS
// SDK for Go and the aws CLI, signed with students' key pairs.
//
// The Go program is built for GOOS=js when the tests start; Miniflare keeps
// the Durable Objects' storage in a temporary directory, so a restart of
// Miniflare drops every object's Go instance and keeps the data.
package workertest

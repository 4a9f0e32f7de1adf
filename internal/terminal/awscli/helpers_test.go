package awscli

import (
	"os/exec"
	"testing"
)

// requireAWS is the path of the real aws CLI. It fails the test when the
// CLI is missing: CI machines have it (version 1.45.11).
func requireAWS(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("aws")
	if err != nil {
		t.Fatal("the aws CLI (v1) is not installed: these tests compare MiniS3's terminal with it")
	}
	return p
}

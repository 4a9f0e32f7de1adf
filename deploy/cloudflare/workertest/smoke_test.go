package workertest

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func TestSmoke(t *testing.T) {
	w := startWorker(t, "manual")
	c := w.studentClient(t, "alice")
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("demo")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), Body: strings.NewReader("hello")}); err != nil {
		t.Fatal(err)
	}
}

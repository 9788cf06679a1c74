/* SHA-1, for naming blobs the stream does not name (markless blobs). */
#ifndef SHA1_H
#define SHA1_H

#include <stddef.h>
#include <stdint.h>

struct sha1_ctx {
	uint32_t h[5];
	uint64_t len;
	unsigned char block[64];
	size_t used;
};

void sha1_init(struct sha1_ctx *c);
void sha1_update(struct sha1_ctx *c, const void *data, size_t len);
void sha1_final(struct sha1_ctx *c, unsigned char out[20]);

/* The Git object id of a blob with this content. */
void git_blob_oid(const void *data, size_t len, unsigned char out[20]);

/* An object id as 40 lower-case hex digits and a NUL. */
void oid_to_hex(const unsigned char oid[20], char hex[41]);
/* Exactly 40 hex digits (either case) as an object id: 0, or -1 when they are not. */
int hex_to_oid(const char *s, size_t len, unsigned char oid[20]);

#endif

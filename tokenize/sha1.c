/*
 * SHA-1 as FIPS 180-4 specifies it: portable, no tables.  The 80 rounds
 * of a block are written out, five at a time with the five variables
 * renamed in turn instead of moved, and the message schedule is a ring
 * of 16 words: the filter names every blob of a stream it is not told
 * the id of, so that this is most of its work on such a stream.
 */
#include "sha1.h"

#include <stdio.h>
#include <string.h>

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

/* The round functions of each fourth of the rounds, and their constants. */
#define CH(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))
#define PARITY(x, y, z) ((x) ^ (y) ^ (z))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* Word i of the schedule: from the block for the first 16, then mixed. */
#define LOAD(i) (w[i] = (uint32_t)p[4 * (i)] << 24 | (uint32_t)p[4 * (i) + 1] << 16 | \
		 (uint32_t)p[4 * (i) + 2] << 8 | p[4 * (i) + 3])
#define MIX(i) (w[(i) & 15] = ROL(w[((i) + 13) & 15] ^ w[((i) + 8) & 15] ^ \
				w[((i) + 2) & 15] ^ w[(i) & 15], 1))
#define WORD(i) ((i) < 16 ? LOAD((i) & 15) : MIX(i))

#define ROUND(a, b, c, d, e, f, k, i) do { \
	e += ROL(a, 5) + f(b, c, d) + (k) + WORD(i); \
	b = ROL(b, 30); \
} while (0)

#define ROUNDS5(i, f, k) do { \
	ROUND(a, b, c, d, e, f, k, (i)); \
	ROUND(e, a, b, c, d, f, k, (i) + 1); \
	ROUND(d, e, a, b, c, f, k, (i) + 2); \
	ROUND(c, d, e, a, b, f, k, (i) + 3); \
	ROUND(b, c, d, e, a, f, k, (i) + 4); \
} while (0)

#define ROUNDS20(i, f, k) do { \
	ROUNDS5((i), f, k); \
	ROUNDS5((i) + 5, f, k); \
	ROUNDS5((i) + 10, f, k); \
	ROUNDS5((i) + 15, f, k); \
} while (0)

static void sha1_block(uint32_t h[5], const unsigned char *p)
{
	uint32_t w[16], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

	ROUNDS20(0, CH, 0x5A827999);
	ROUNDS20(20, PARITY, 0x6ED9EBA1);
	ROUNDS20(40, MAJ, 0x8F1BBCDC);
	ROUNDS20(60, PARITY, 0xCA62C1D6);
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void sha1_init(struct sha1_ctx *c)
{
	static const uint32_t iv[5] = {
		0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0
	};

	memcpy(c->h, iv, sizeof(iv));
	c->len = 0;
	c->used = 0;
}

void sha1_update(struct sha1_ctx *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	c->len += len;
	if (c->used) {
		size_t take = 64 - c->used < len ? 64 - c->used : len;

		memcpy(c->block + c->used, p, take);
		c->used += take;
		p += take;
		len -= take;
		if (c->used < 64)
			return;
		sha1_block(c->h, c->block);
		c->used = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha1_block(c->h, p);
	memcpy(c->block, p, len);
	c->used = len;
}

void sha1_final(struct sha1_ctx *c, unsigned char out[20])
{
	uint64_t bits = c->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = c->used < 56 ? 56 - c->used : 120 - c->used;
	int i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha1_update(c, pad, padlen + 8);
	for (i = 0; i < 20; i++)
		out[i] = (unsigned char)(c->h[i / 4] >> (24 - 8 * (i % 4)));
}

void git_blob_oid(const void *data, size_t len, unsigned char out[20])
{
	struct sha1_ctx c;
	char hdr[32];
	int n = snprintf(hdr, sizeof(hdr), "blob %zu", len);

	sha1_init(&c);
	sha1_update(&c, hdr, (size_t)n + 1);
	sha1_update(&c, data, len);
	sha1_final(&c, out);
}

void oid_to_hex(const unsigned char oid[20], char hex[41])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 20; i++) {
		hex[2 * i] = digits[oid[i] >> 4];
		hex[2 * i + 1] = digits[oid[i] & 15];
	}
	hex[40] = '\0';
}

static int hex_digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int hex_to_oid(const char *s, size_t len, unsigned char oid[20])
{
	size_t i;

	if (len != 40)
		return -1;
	for (i = 0; i < 20; i++) {
		int hi = hex_digit_value(s[2 * i]), lo = hex_digit_value(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		oid[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

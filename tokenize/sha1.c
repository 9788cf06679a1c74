/*
 * SHA-1 as FIPS 180-4 specifies it, no tables.  The filter names every
 * blob of a stream it is not told the id of, so that this is most of its
 * work on such a stream: the 80 rounds of a block are written out, five
 * at a time with the five variables renamed in turn instead of moved,
 * over a message schedule that is a ring of 16 words; and on an x86
 * processor with the SHA extensions, four rounds are one instruction.
 */
#include "sha1.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SHA1_X86
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>
#endif

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

#ifdef SHA1_X86
/*
 * Whether the processor has the SHA extensions (and the SSSE3 and SSE4.1
 * the code around them needs).  CPUID is asked once and the answer kept,
 * the one state of this file: in a virtual machine each CPUID costs
 * microseconds, more than the SHA-1 of a small blob.  Every thread that
 * asks first finds the same answer.
 */
static int cpu_has_sha(void)
{
	static atomic_int known = -1;
	int has = atomic_load_explicit(&known, memory_order_relaxed);
	unsigned a, b, c, d;

	if (has >= 0)
		return has;
	has = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1) &&
	      __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
	atomic_store_explicit(&known, has, memory_order_relaxed);
	return has;
}

/*
 * Four rounds of the nr blocks at p by each SHA1RNDS4, its message
 * words made by SHA1MSG1, SHA1MSG2 and SHA1NEXTE four at a time, as
 * Intel's description of the extensions lays them out: step k (rounds 4k
 * to 4k + 3) takes the words m[k % 4] and, from step 1 on, starts the
 * words of the steps that follow.
 */
#define SHA1_X86_STEP(k) do { \
	if ((k) < 4) \
		m[k] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * (k))), swap); \
	if ((k) == 0) \
		e[0] = _mm_add_epi32(e[0], m[0]); \
	else \
		e[(k) % 2] = _mm_sha1nexte_epu32(e[(k) % 2], m[(k) % 4]); \
	e[((k) + 1) % 2] = abcd; \
	if ((k) >= 3 && (k) <= 18) \
		m[((k) + 1) % 4] = _mm_sha1msg2_epu32(m[((k) + 1) % 4], m[(k) % 4]); \
	abcd = _mm_sha1rnds4_epu32(abcd, e[(k) % 2], (k) / 5); \
	if ((k) >= 1 && (k) <= 16) \
		m[((k) + 3) % 4] = _mm_sha1msg1_epu32(m[((k) + 3) % 4], m[(k) % 4]); \
	if ((k) >= 2 && (k) <= 17) \
		m[((k) + 2) % 4] = _mm_xor_si128(m[((k) + 2) % 4], m[(k) % 4]); \
} while (0)

__attribute__((target("sha,ssse3,sse4.1")))
static void sha1_blocks_x86(uint32_t h[5], const unsigned char *p, size_t nr)
{
	/* the bytes of each word swapped, and the words in reverse order */
	const __m128i swap = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
	__m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0x1b);
	__m128i e[2], m[4];

	e[0] = _mm_set_epi32((int)h[4], 0, 0, 0);
	for (; nr; nr--, p += 64) {
		__m128i abcd_was = abcd, e_was = e[0];

		SHA1_X86_STEP(0); SHA1_X86_STEP(1); SHA1_X86_STEP(2); SHA1_X86_STEP(3);
		SHA1_X86_STEP(4); SHA1_X86_STEP(5); SHA1_X86_STEP(6); SHA1_X86_STEP(7);
		SHA1_X86_STEP(8); SHA1_X86_STEP(9); SHA1_X86_STEP(10); SHA1_X86_STEP(11);
		SHA1_X86_STEP(12); SHA1_X86_STEP(13); SHA1_X86_STEP(14); SHA1_X86_STEP(15);
		SHA1_X86_STEP(16); SHA1_X86_STEP(17); SHA1_X86_STEP(18); SHA1_X86_STEP(19);
		e[0] = _mm_sha1nexte_epu32(e[0], e_was);
		abcd = _mm_add_epi32(abcd, abcd_was);
	}
	_mm_storeu_si128((__m128i *)h, _mm_shuffle_epi32(abcd, 0x1b));
	h[4] = (uint32_t)_mm_extract_epi32(e[0], 3);
}
#endif

/* The nr blocks of 64 bytes at p. */
static void sha1_blocks(uint32_t h[5], const unsigned char *p, size_t nr)
{
#ifdef SHA1_X86
	if (cpu_has_sha()) {
		sha1_blocks_x86(h, p, nr);
		return;
	}
#endif
	for (; nr; nr--, p += 64)
		sha1_block(h, p);
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
		sha1_blocks(c->h, c->block, 1);
		c->used = 0;
	}
	sha1_blocks(c->h, p, len / 64);
	p += len / 64 * 64;
	len %= 64;
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

#include "lines.h"

#include <stdint.h>
#include <string.h>

/*
 * Eight bytes at a time: a memchr per line costs more than this on the
 * short lines of source code (and far more on the one-token lines of a
 * view), and a byte loop is not vectorised at -O2 by every compiler.
 */
size_t count_newlines(const void *p, size_t n)
{
	const unsigned char *s = p;
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
	size_t count = 0, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w, zero;

		memcpy(&w, s + i, 8);
		w ^= 0x0a0a0a0a0a0a0a0aULL;
		/* the high bit of each byte that was LF, and of no other */
		zero = ~(((w & low7) + low7) | w | low7);
		count += (size_t)(((zero >> 7) * 0x0101010101010101ULL) >> 56);
	}
	for (; i < n; i++)
		count += s[i] == '\n';
	return count;
}

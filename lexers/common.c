/* Helpers for constructs that several lexers share. */
#include "lexers.h"

size_t lex_line_comment(const unsigned char *s, size_t p, size_t n, int splices)
{
	for (;;) {
		const unsigned char *nl = memchr(s + p, '\n', n - p);
		size_t e = nl ? (size_t)(nl - s) : n;
		size_t k = e;

		if (k > p && s[k - 1] == '\r')
			k--;
		if (splices && nl && k > p && s[k - 1] == '\\') {
			p = e + 1;
			continue;
		}
		return k;
	}
}

size_t lex_block_comment_from(const unsigned char *s, size_t p, size_t n,
			      size_t openlen, const char *close, size_t closelen)
{
	size_t q = p + openlen;

	if (q > n)
		return n;
	while (n - q >= closelen) {
		const unsigned char *c = memchr(s + q, close[0], n - q - closelen + 1);

		if (!c)
			break;
		q = (size_t)(c - s);
		if (!memcmp(s + q, close, closelen))
			return q + closelen;
		q++;
	}
	return n;
}

size_t lex_block_comment(const unsigned char *s, size_t p, size_t n,
			 const char *close, size_t closelen)
{
	return lex_block_comment_from(s, p, n, closelen, close, closelen);
}

size_t lex_quoted(const unsigned char *s, size_t p, size_t n, int multiline)
{
	unsigned char q = s[p++];

	while (p < n) {
		unsigned char c = s[p];

		if (c == q)
			return p + 1;
		if (!multiline && (c == '\n' || (c == '\r' && p + 1 < n && s[p + 1] == '\n')))
			return p;
		if (c == '\\' && p + 1 < n) {
			p += s[p + 1] == '\r' && p + 2 < n && s[p + 2] == '\n' ? 3 : 2;
			continue;
		}
		p++;
	}
	return n;
}

/*
 * Escaping for every output format (escape.h): one loop per format, so
 * that HTML, URLs, cache fields and JSON are escaped the same way by
 * every command that writes them.
 */
#include "escape.h"
#include "usage.h"

#include <string.h>

void html_escape(struct strbuf *sb, const char *s, size_t len, unsigned flags)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		case '\0': strbuf_addstr(sb, "&#xFFFD;"); break;
		default:
			if ((flags & HTML_KEEP_LAYOUT) && (c == '\t' || c == '\n' || c == 0x7f))
				strbuf_addch(sb, (char)c);
			else if (c < 0x20 || c == 0x7f)
				strbuf_addf(sb, "&#x%X;", c == 0x7f ? 0x2421 : 0x2400 + c);
			else
				strbuf_addch(sb, (char)c);
		}
	}
}

void html_text(struct strbuf *sb, const char *s)
{
	if (s)
		html_escape(sb, s, strlen(s), 0);
}

static int percent_keeps(unsigned char c, enum percent_set set)
{
	if (set == CACHE_FIELD)
		return c > ' ' && c != '%' && c != '=' && c != 0x7f;
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

void percent_escape(struct strbuf *sb, const char *s, size_t len, enum percent_set set)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (percent_keeps(c, set))
			strbuf_addch(sb, (char)c);
		else
			strbuf_addf(sb, "%%%02X", c);
	}
}

static int upper_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *percent_unescape(const char *s, size_t len)
{
	char *out = xmalloc(len + 1), *d = out;
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len && upper_hex_digit(s[i + 1]) >= 0 &&
		    upper_hex_digit(s[i + 2]) >= 0) {
			*d++ = (char)(upper_hex_digit(s[i + 1]) << 4 | upper_hex_digit(s[i + 2]));
			i += 2;
			continue;
		}
		*d++ = s[i];
	}
	*d = '\0';
	return out;
}

/* The bytes that have a one-letter escape, and their letters, in the same order. */
static const char escaped_bytes[] = "\a\b\f\n\r\t\v\"\\";
static const char escape_letters[] = "abfnrtv\"\\";

char backslash_letter(char c, const char *letters)
{
	const char *at = c ? strchr(escaped_bytes, c) : NULL;
	char letter;

	if (!at)
		return 0;
	letter = escape_letters[at - escaped_bytes];
	return strchr(letters, letter) ? letter : 0;
}

char backslash_byte(char letter, const char *letters)
{
	const char *at = letter ? strchr(escape_letters, letter) : NULL;

	if (!at || !strchr(letters, letter))
		return 0;
	return escaped_bytes[at - escape_letters];
}

void tsv_field(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		char letter = backslash_letter(*s, "\\tnr");

		if (letter) {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, letter);
		} else {
			strbuf_addch(sb, *s);
		}
	}
}

/*
 * The lead bytes whose second byte has narrower bounds than 80..BF: they
 * keep out overlong forms (E0, F0), surrogates (ED) and code points past
 * U+10FFFF (F4), as RFC 3629 has it.
 */
static const struct {
	unsigned char lead, lo, hi;
} second_byte_bounds[] = {
	{ 0xE0, 0xA0, 0xBF }, { 0xED, 0x80, 0x9F }, { 0xF0, 0x90, 0xBF }, { 0xF4, 0x80, 0x8F },
};

size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp, size_t *bad)
{
	unsigned char lo = 0x80, hi = 0xBF;
	size_t need, k;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		need = 1;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		need = 2;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		need = 3;
	else {
		*bad = 1;
		return 0;
	}
	for (k = 0; k < sizeof(second_byte_bounds) / sizeof(second_byte_bounds[0]); k++)
		if (second_byte_bounds[k].lead == s[0]) {
			lo = second_byte_bounds[k].lo;
			hi = second_byte_bounds[k].hi;
		}
	*cp = s[0] & (0x3F >> need);
	for (k = 1; k <= need; k++) {
		if (k >= n || s[k] < lo || s[k] > hi) {
			*bad = k;
			return 0;
		}
		*cp = *cp << 6 | (s[k] & 0x3F);
		lo = 0x80;
		hi = 0xBF;
	}
	return need + 1;
}

void json_quote(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	strbuf_addch(sb, '"');
	while (i < len) {
		unsigned char c = s[i];
		size_t n, bad = 0;
		unsigned cp;
		char letter;

		if (c >= 0x80) {
			n = utf8_decode(s + i, len - i, &cp, &bad);
			if (!n) {
				strbuf_addstr(sb, "\\ufffd");
				i += bad;
			} else if (n == 3 && c == 0xE2 && s[i + 1] == 0x80 && (s[i + 2] == 0xA8 || s[i + 2] == 0xA9)) {
				/* valid JSON as they are, but line ends to JavaScript */
				strbuf_addstr(sb, s[i + 2] == 0xA8 ? "\\u2028" : "\\u2029");
				i += n;
			} else {
				strbuf_add(sb, s + i, n);
				i += n;
			}
			continue;
		}
		if ((letter = backslash_letter((char)c, "\"\\bfnrt"))) {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, letter);
		} else if (c < 0x20 || c == 0x7f) {
			strbuf_addf(sb, "\\u%04x", c);
		} else {
			strbuf_addch(sb, (char)c);
		}
		i++;
	}
	strbuf_addch(sb, '"');
}

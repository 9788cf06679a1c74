#include "quote.h"
#include "escape.h"

const char *unquote_c_style(struct strbuf *out, const char *s, const char *end, const char **err)
{
	char byte;

	*err = "unterminated quoted path";
	for (s++; s < end; s++) {
		if (*s == '"')
			return s + 1;
		if (*s != '\\') {
			strbuf_addch(out, *s);
			continue;
		}
		if (++s >= end)
			return NULL;
		byte = backslash_byte(*s, "abfnrtv\"\\");
		if (byte) {
			strbuf_addch(out, byte);
			continue;
		}
		switch (*s) {
		case '0': case '1': case '2': case '3': {
			int v = 0, k;

			for (k = 0; k < 3; k++, s++) {
				if (s >= end || *s < '0' || *s > '7') {
					*err = "invalid octal escape in quoted path";
					return NULL;
				}
				v = v * 8 + (*s - '0');
			}
			s--;
			strbuf_addch(out, v);
			break;
		}
		default:
			*err = "invalid escape in quoted path";
			return NULL;
		}
	}
	return NULL;
}

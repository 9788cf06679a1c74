#include "parse.h"

#include <stddef.h>
#include <string.h>

const char *scan_decimal(const char *p, uintmax_t *v)
{
	*v = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (*v > (UINTMAX_MAX - (uintmax_t)(*p - '0')) / 10)
			return NULL;
		*v = *v * 10 + (uintmax_t)(*p - '0');
	}
	return p;
}

int parse_size(const char *s, uintmax_t *size)
{
	uintmax_t v, unit = 1;
	const char *p;

	if (*s < '0' || *s > '9' || !(p = scan_decimal(s, &v)))
		return -1;
	switch (*p) {
	case 'k': case 'K':
		unit = (uintmax_t)1 << 10;
		p++;
		break;
	case 'm': case 'M':
		unit = (uintmax_t)1 << 20;
		p++;
		break;
	case 'g': case 'G':
		unit = (uintmax_t)1 << 30;
		p++;
		break;
	}
	if (*p || v > UINTMAX_MAX / unit)
		return -1;
	*size = v * unit;
	return 0;
}

int is_hex40(const char *s)
{
	int i;

	for (i = 0; i < 40; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

int option_value(const char *name, int argc, char **argv, int *i, const char **value)
{
	const char *arg = argv[*i];
	size_t len = strlen(name);

	if (strncmp(arg, name, len))
		return 0;
	if (arg[len] == '=')
		*value = arg + len + 1;
	else if (!arg[len])
		*value = *i + 1 < argc ? argv[++*i] : NULL;
	else
		return 0;
	return 1;
}

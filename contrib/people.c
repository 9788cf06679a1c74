/*
 * Who an author is (people.h).
 */
#include "people.h"

#include <string.h>
#include <strings.h>

int is_bot_name(const char *name)
{
	size_t len = strlen(name);

	return len > 5 && !strcasecmp(name + len - 5, "[bot]");
}

/*
 * Who an author is, for every command that counts people (report, html):
 * a bot's name is no person's.
 */
#ifndef PEOPLE_H
#define PEOPLE_H

/*
 * Whether name (as the mailmap gives it) is a bot's: it ends in "[bot]",
 * as GitHub names its apps' commits (dependabot[bot], pre-commit-ci[bot]).
 */
int is_bot_name(const char *name);

#endif

/*
 * The pages' stylesheets and script, each a file of its own in
 * contrib/page/ that contrib/embed.sh makes C at build time (the
 * Makefile's PAGE_ASSETS): NAME holds what a page carries of the file
 * NAME_len bytes, and a NUL after them.
 */
#ifndef PAGE_H
#define PAGE_H

#include <stddef.h>

/* html.css, html.js: the html command's pages (html.c) */
extern const unsigned char html_css[];
extern const size_t html_css_len;
extern const unsigned char html_js[];
extern const size_t html_js_len;

/* report.css: the report's page (report-page.c) */
extern const unsigned char report_css[];
extern const size_t report_css_len;

#endif

#include <stdio.h>
#include "local.h"
#define STR(x) #x
#define CAT(a, b) a ## b
#define CAT2(a,b) a##b
#  define SPACED 1
#if defined(FOO) && FOO > 1
#elif !defined BAR
#else
#endif
#error don't do this
int after_error;
#warning "quoted" it's
#pragma once
#line 42 "file.c"
%:define DIGRAPH %:%:
#define MULTI(x) \
	do { \
		f(x); \
	} while (0)
# /* null directive with comment */
#

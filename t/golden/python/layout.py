#!/usr/bin/env python3
# -*- coding: utf-8 -*-
import sys


class Thing(object):
    """Docstring."""

    def method(self):
        if True:
            return 1 + \
                2
        # comment at an indented level
	# a tab-indented comment
    	x = [
            1,
        2]
name = ünïcödé + 名前 + x̄
# a comment with a \ at the end \
not_a_continuation = 1
\ stray

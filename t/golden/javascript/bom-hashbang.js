#!/usr/bin/env node
x = /re/;

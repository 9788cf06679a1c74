import os  # a byte order mark is a token of its own

import os

class A:
    """doc
    string"""
    def f(self, a,
          b):  # comment
        return a + \
            b

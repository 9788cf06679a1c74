from typing import overload
@overload
def f(x: int = ..., *, y: str) -> list[int]: ...
class C:
    a: "C | None"

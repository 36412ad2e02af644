"""Counting checks: what each of the grader's self-check scripts records
its findings with. A failed check is explained and the run goes on; the
summary line is the one CI reads."""

passed = 0
failed = 0


def check(condition, what, detail=""):
    """Records one check; a failed one is explained but does not stop the rest."""
    global passed, failed
    if condition:
        passed += 1
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAILED: {what}" + (f"\n    {detail}" if detail else ""))


def summary():
    """Prints the count and returns the exit status."""
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0

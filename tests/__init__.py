"""paintkit's tests. A package so that ``tests.support`` (helpers shared by several test
folders and by bench/) imports by name; the test folders themselves are not packages."""

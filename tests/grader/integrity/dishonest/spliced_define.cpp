// expect: redefines the test macro or name 'TEST_CASE'
#  \
define TEST_\
CASE(...) static void ignored()

// expect: redefines the test macro or name 'CHECK'
// A line comment that ends at a carriage return, which the compiler takes
// for a line end: the definition after it is code.
// harmless#define CHECK(...) ((void)0)
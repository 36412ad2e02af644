// Placeholder, replaced by the chapter's experiment.
int main() { return 0; }

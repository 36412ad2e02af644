// expect: touches a sanitizer's hook (__lsan_disable)
// expect: touches a sanitizer's hook (namespace __tsan)
// expect: touches a sanitizer's hook (__tsan::OnReport)
// expect: touches a sanitizer's hook (__asan_default_options)
extern "C" void __lsan_dis\
able();
namespace __tsan { bool OnReport(const void*, bool) { return true; } }
extern "C" const char* options() asm("__asan_" "default_options");
void quiet() { __lsan_disable(); __tsan::OnReport(nullptr, false); }

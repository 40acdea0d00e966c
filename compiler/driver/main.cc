#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "compiler/driver/driver.h"

#if defined(__SANITIZE_ADDRESS__)
#define FLOWC_EXIT_NORMALLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLOWC_EXIT_NORMALLY 1
#endif
#endif

int main(int argc, char** argv) {
  int status = flowc::driver::Run(argc, argv);
#ifndef FLOWC_EXIT_NORMALLY
  // Everything flowc writes is written: leave without destroying the static tables of ANTLR's
  // parser and of the libraries, which the process's end frees anyway (3 % of a sample
  // compile's instructions; bench/STARTUP.md). The address sanitizer's build exits normally, as
  // its leak check runs at exit.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(status);
#endif
  return status;
}

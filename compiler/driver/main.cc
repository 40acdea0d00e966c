#include "compiler/driver/driver.h"

int main(int argc, char** argv) { return flowc::driver::Run(argc, argv); }

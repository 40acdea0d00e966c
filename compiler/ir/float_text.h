// How flowc prints a float, wherever it prints one (the IR JSON, param defaults, Airflow's
// Param defaults): nlohmann's layout with the fewest digits that read back.
#ifndef FLOWC_IR_FLOAT_TEXT_H_
#define FLOWC_IR_FLOAT_TEXT_H_

#include <string>
#include <string_view>

namespace flowc::ir {

// A finite `value` laid out as nlohmann::json prints a float ("0.5", "3.0",
// "0.0001", "1e-05", "1.5e+16"), with the fewest significant digits that
// read back as `value` (std::to_chars). nlohmann's Grisu2 always reads back
// but does not always find the fewest (it prints 1e23 as
// 9.999999999999999e+22). Where Grisu2 found as few digits, this is its
// text. A non-finite value is "null", as nlohmann prints it.
std::string FloatText(double value);
// `dumped`, the output of nlohmann's dump(), with each float in it printed
// by FloatText (nlohmann prints every float with a '.' or an 'e', never an
// integer so). Every place flowc prints a float goes through one of these.
std::string ShortestFloats(std::string_view dumped);

}  // namespace flowc::ir

#endif  // FLOWC_IR_FLOAT_TEXT_H_

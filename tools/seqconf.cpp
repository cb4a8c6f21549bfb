// seqconf: the command line of the suite.
#include <CLI/CLI.hpp>
#include <iostream>

#include "reference/error.h"

namespace {

int list_error_codes() {
  for (int i = 0;; ++i) {
    seqconf::ErrorCode code;
    (void)code;
    const auto c = static_cast<seqconf::ErrorCode>(i);
    if (i > static_cast<int>(seqconf::ErrorCode::io_error)) break;
    std::cout << seqconf::error_code_name(c) << "\t" << seqconf::error_code_summary(c) << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"seqconf: conformance suite for the ONNX sequence operators"};
  app.require_subcommand(1);
  auto* errors = app.add_subcommand("errors", "List the stable error codes of the reference");
  errors->callback([] { std::exit(list_error_codes()); });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  return 0;
}

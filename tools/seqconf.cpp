// seqconf: the command line of the suite.
#include <iostream>

#include "reference/error.h"
#include "runtimes/isolated.h"
#include "tools/command.h"

int main(int argc, char** argv) {
  seqconf::serve_if_worker(argc, argv);  // a worker process of another seqconf
  CLI::App app{"seqconf: conformance suite for the ONNX sequence operators"};
  app.require_subcommand(1);
  seqconf::cli::add_registered_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? seqconf::cli::kExitOk : seqconf::cli::kExitUsage;
  } catch (const seqconf::Error& e) {
    std::cerr << "seqconf: " << seqconf::error_code_name(e.code()) << ": " << e.what() << "\n";
    return seqconf::cli::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "seqconf: " << e.what() << "\n";
    return seqconf::cli::kExitUsage;
  }
  return seqconf::cli::exit_code();
}

// The files of a bundle folder: its name, and bytes written (atomically) and read.
#pragma once

#include <filesystem>
#include <string>

#include "reference/proto.h"

namespace seqconf::bundle {

// A folder name for a departure id: the id with characters a file system may not take replaced
// by '_', at most 150 characters, never hidden.
std::string folder_name(const std::string& id);

void write_bytes(const std::filesystem::path& p, const std::string& bytes);
// Throws Error(io_error) when p cannot be read.
std::string read_bytes(const std::filesystem::path& p);
std::string model_bytes(const onnx::ModelProto& m);

// The SHA-256 of bytes, in lower-case hex (what Node's crypto.createHash('sha256') gives).
std::string sha256_hex(const std::string& bytes);

}  // namespace seqconf::bundle

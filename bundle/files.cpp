#include "bundle/files.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include <openssl/evp.h>

#include "reference/error.h"
#include "reports/output.h"

namespace seqconf::bundle {

namespace fs = std::filesystem;

std::string folder_name(const std::string& id) {
  std::string s;
  for (char c : id)
    s += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ||
          c == '+' || c == '=' || c == ',')
             ? c
             : '_';
  if (s.size() > 150) s = s.substr(0, 150);
  if (s.empty() || s[0] == '.') s = "_" + s;
  return s;
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  reports::write_file_atomic(p, bytes);
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(ErrorCode::io_error, "cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string model_bytes(const onnx::ModelProto& m) {
  std::string s;
  if (!m.SerializeToString(&s)) throw Error(ErrorCode::io_error, "cannot serialize a model");
  return s;
}

std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr))
    throw Error(ErrorCode::io_error, "cannot compute a SHA-256");
  static const char* const kHex = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

}  // namespace seqconf::bundle

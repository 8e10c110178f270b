// The KyotoCabinet-C++ row of `sluice bench kv`: Kyoto Cabinet's TreeDB (a .kct file, default tuning) driven from
// C++ through libkyotocabinet, the workload of kv_bench.rb. io.sluice.bench.jruby.KvBench compiles it into its
// scratch directory (g++ -O2 ... -lkyotocabinet) and speaks to it as to the other rows' workers: one command per
// line on standard input,
//   run <row> <round> <n> <gets> <scans> <keys file> <store path>     (tab-separated)
//   quit
// after a first line "ready", and for each run, on standard output, "sample <row> <op> <round> <ops> <seconds> <n>
// <cpu seconds>" for load, get and scan, "size <row> <bytes>", then "done" (or "error <message>" on a failure).
#include <kcpolydb.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <ctime>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

const int SCAN = 100;

void put32(char* p, uint32_t v) {
  for (int i = 3; i >= 0; i--) { p[i] = static_cast<char>(v & 0xff); v >>= 8; }
}

void put64(char* p, uint64_t v) {
  for (int i = 7; i >= 0; i--) { p[i] = static_cast<char>(v & 0xff); v >>= 8; }
}

// Entry i, as KvBench.key and kv_bench.rb's key: sequence i % 25, bin start >> 17, start i / 25 * 1000, big-endian.
void key(char* k, int64_t i) {
  uint64_t start = static_cast<uint64_t>(i / 25) * 1000;
  put32(k, static_cast<uint32_t>(i % 25));
  put32(k + 4, static_cast<uint32_t>(start >> 17));
  put64(k + 8, start);
}

void value(char* v, int64_t i) {
  put64(v, static_cast<uint64_t>(i) * 4096);
  put64(v + 8, 1000 + static_cast<uint64_t>(i & 1023));
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpu() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// One sample, timed from t and c (now() and cpu() at its start).
void emit(const std::string& row, const char* op, const std::string& round, int64_t ops, double t, double c,
          int64_t n) {
  double seconds = now() - t;
  std::printf("sample\t%s\t%s\t%s\t%lld\t%.6f\t%lld\t%.6f\n", row.c_str(), op, round.c_str(),
              static_cast<long long>(ops), seconds, static_cast<long long>(n), cpu() - c);
}

// The key file: big-endian 32-bit entry numbers, the gets' then the scans'.
bool readKeys(const std::string& file, int64_t count, std::vector<uint32_t>* out) {
  std::ifstream in(file, std::ios::binary);
  std::vector<unsigned char> raw(static_cast<size_t>(count) * 4);
  if (!in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size()))) {
    return false;
  }
  out->resize(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; i++) {
    const unsigned char* p = &raw[static_cast<size_t>(i) * 4];
    (*out)[static_cast<size_t>(i)] = (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
  }
  return true;
}

std::string run(const std::vector<std::string>& f) {
  const std::string& row = f[1];
  const std::string& round = f[2];
  int64_t n = std::stoll(f[3]);
  int64_t gets = std::stoll(f[4]);
  int64_t scans = std::stoll(f[5]);
  std::vector<uint32_t> idx;
  if (!readKeys(f[6], gets + scans, &idx)) {
    return "cannot read the key file " + f[6];
  }
  std::string path = f[7];
  std::vector<std::string> getKeys(static_cast<size_t>(gets)), scanKeys(static_cast<size_t>(scans));
  char k[16], v[16];
  for (int64_t i = 0; i < gets + scans; i++) {
    key(k, idx[static_cast<size_t>(i)] % n);
    (i < gets ? getKeys[static_cast<size_t>(i)] : scanKeys[static_cast<size_t>(i - gets)]).assign(k, 16);
  }
  kyotocabinet::TreeDB db;
  if (!db.open(path, kyotocabinet::TreeDB::OWRITER | kyotocabinet::TreeDB::OCREATE
                         | kyotocabinet::TreeDB::OTRUNCATE)) {
    return "open(" + path + "): " + db.error().name() + ": " + db.error().message();
  }
  double c = cpu();
  double t = now();
  for (int64_t i = 0; i < n; i++) {
    key(k, i);
    value(v, i);
    if (!db.set(k, 16, v, 16)) {
      return "set(" + path + "): " + db.error().name();
    }
  }
  db.synchronize(false);
  emit(row, "load", round, n, t, c, n);
  c = cpu();
  t = now();
  int64_t found = 0;
  char buf[64];
  for (const std::string& g : getKeys) {
    if (db.get(g.data(), g.size(), buf, sizeof buf) >= 0) {
      found++;
    }
  }
  emit(row, "get", round, gets, t, c, n);
  if (found != gets) {
    return row + ": " + std::to_string(found) + " of " + std::to_string(gets) + " keys found";
  }
  c = cpu();
  t = now();
  int64_t seen = 0;
  kyotocabinet::DB::Cursor* cur = db.cursor();
  std::string ck, cv;
  for (const std::string& s : scanKeys) {
    cur->jump(s);
    for (int j = 0; j < SCAN && cur->get(&ck, &cv, true); j++) {
      seen += cv.size() > 0 ? 1 : 0;
    }
  }
  delete cur;
  emit(row, "scan", round, scans, t, c, n);
  if (seen == 0) {
    return row + ": scans saw nothing";
  }
  if (!db.close()) {
    return "close(" + path + "): " + db.error().name();
  }
  struct stat st;
  std::printf("size\t%s\t%lld\n", row.c_str(), stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : 0LL);
  unlink(path.c_str());
  return "";
}

}  // namespace

int main() {
  std::printf("ready\n");
  std::fflush(stdout);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string part; std::getline(ss, part, '\t');) {
      f.push_back(part);
    }
    if (f.empty() || f[0] == "quit") {
      break;
    }
    std::string failure;
    try {
      failure = f[0] == "run" && f.size() == 8 ? run(f) : "bad command: " + line;
    } catch (const std::exception& e) {
      failure = std::string("bad command: ") + e.what() + ": " + line;
    }
    if (failure.empty()) {
      std::printf("done\n");
    } else {
      std::printf("error\t%s\n", failure.c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}

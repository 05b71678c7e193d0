// ReadInputText (kube/input.h): a regular file mapped in place, anything
// else read; the same text, limit and errors either way.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli/common.h"
#include "kube/input.h"

namespace zs::tools {
namespace {

class InputTextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("zs_input_text_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    MutableReadLimits() = ReadLimits{};
    std::filesystem::remove_all(dir_);
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(InputTextTest, AFileReadsWholeWithReadablePaddingAfterIt) {
  // Sizes around a page boundary: the padding then lies past the file's
  // last page, which must still be readable.
  for (std::size_t size : {std::size_t{1}, std::size_t{4095}, std::size_t{4096},
                           std::size_t{4097}, std::size_t{100000}}) {
    std::string text(size, 'x');
    for (std::size_t i = 0; i < size; i += 7) text[i] = static_cast<char>('a' + i % 26);
    const std::string path = Write(std::to_string(size) + ".json", text);
    auto in = ReadInputText(path);
    ASSERT_TRUE(in.ok()) << in.status().ToString();
    EXPECT_EQ(in->text(), text);
    ASSERT_GE(in->readable_padding(), 64u);
    const char* end = in->text().data() + in->text().size();
    int sum = 0;
    for (std::size_t i = 0; i < in->readable_padding(); ++i) sum += end[i];
    EXPECT_EQ(sum, 0) << "the bytes after a mapped file read as zeros";
    // Moving keeps the text where it is.
    InputText moved = std::move(in).value();
    EXPECT_EQ(moved.text(), text);
  }
}

TEST_F(InputTextTest, EmptyFilesAndPipesAreRead) {
  auto empty = ReadInputText(Write("empty", ""));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->text(), "");
  // A FIFO is not a regular file: it is read, not mapped.
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << R"({"kind":"List"})"; });
  auto piped = ReadInputText(fifo);
  writer.join();
  ASSERT_TRUE(piped.ok()) << piped.status().ToString();
  EXPECT_EQ(piped->text(), R"({"kind":"List"})");
  EXPECT_GE(piped->readable_padding(), 64u);
}

TEST_F(InputTextTest, APipeOfSeveralReadStepsArrivesWholeAndUnderItsLimit) {
  // Several MiB in uneven writes: the text spans many reads and the buffer
  // grows several times; every byte lands where the last read ended.
  std::string text(3 * (std::size_t{1} << 20) + 5, ' ');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + (i * 31) % 26);
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto feed = [&](std::size_t bytes) {
    return std::thread([&fifo, &text, bytes] {
      std::ofstream out(fifo, std::ios::binary);
      for (std::size_t at = 0, step = 1; at < bytes; at += step, step = step * 3 % 70001 + 1) {
        out.write(text.data() + at, static_cast<std::streamsize>(std::min(step, bytes - at)));
      }
    });
  };
  MutableReadLimits().max_bytes = text.size();
  std::thread writer = feed(text.size());
  auto piped = ReadInputText(fifo);
  writer.join();
  ASSERT_TRUE(piped.ok()) << piped.status().ToString();
  EXPECT_TRUE(piped->text() == text) << "the text read from the pipe differs";
  const char* end = piped->text().data() + piped->text().size();
  int sum = 0;
  for (std::size_t i = 0; i < piped->readable_padding(); ++i) sum += end[i];
  EXPECT_EQ(sum, 0) << "the bytes after a piped text read as zeros";

  MutableReadLimits().max_bytes = text.size() - 1;
  writer = feed(text.size());
  auto over = ReadInputText(fifo);
  writer.join();
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().ToString().find("exceeds the limit of " + std::to_string(text.size() - 1)),
            std::string::npos)
      << over.status().ToString();
}

TEST_F(InputTextTest, LimitsAndErrorsAreReadFileOrStdinsOwn) {
  const std::string path = Write("big", std::string(1000, ' '));
  MutableReadLimits().max_bytes = 999;
  auto mapped = ReadInputText(path);
  auto read = ReadFileOrStdin(path);
  ASSERT_FALSE(mapped.ok());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(mapped.status().ToString(), read.status().ToString());
  EXPECT_NE(mapped.status().ToString().find("--max-object-size"), std::string::npos);

  const std::string missing = (dir_ / "missing.json").string();
  auto gone = ReadInputText(missing);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().ToString(), ReadFileOrStdin(missing).status().ToString());
  EXPECT_NE(gone.status().ToString().find(missing), std::string::npos);
}

// ObjectInput: a List file and a file that is not one List hand out their
// objects once; a second Read of a file streamed through is an error, not
// a read of nothing; an input over the limit fails at Open.
TEST_F(InputTextTest, AnObjectInputIsReadOnceAndChecksTheLimitAtOpen) {
  const std::string secret =
      R"({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "n"},)"
      R"( "type": "Opaque", "data": {"k": "dg=="}})";
  const std::string list = Write("list.json", R"({"apiVersion": "v1", "kind": "List", "items": [)" +
                                                  secret + "," + secret + "]}");
  const std::string single = Write("secret.json", secret);
  for (const std::string& path : {list, single}) {
    auto input = ObjectInput::Open(path);
    ASSERT_TRUE(input.ok()) << input.status().ToString();
    std::size_t objects = 0;
    auto count = [&](InputObject) {
      ++objects;
      return Status::OK();
    };
    Input header;
    ASSERT_TRUE(input->Read(&header, count).ok()) << path;
    // A List's Secrets that are not Zarf state are counted as skipped.
    EXPECT_EQ(objects + header.skipped.size(), path == list ? 2u : 1u) << path;
    EXPECT_EQ(input->size(), std::filesystem::file_size(path)) << path;
    EXPECT_EQ(header.is_list, path == list) << path;
    if (path == list) {
      Input again;
      const Status second = input->Read(&again, count);
      EXPECT_EQ(second.code(), Status::Code::kIOError) << second.ToString();
      EXPECT_NE(second.message().find("already read"), std::string::npos) << second.ToString();
      EXPECT_EQ(objects + again.skipped.size(), 0u);
    }
  }
  MutableReadLimits().max_bytes = 100;
  auto over = ObjectInput::Open(list);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("exceeds the limit of 100 bytes"), std::string::npos)
      << over.status().ToString();
}

}  // namespace
}  // namespace zs::tools

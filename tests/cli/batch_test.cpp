// --batch LIST: each pair's output equals the single-pair CLI's
// byte for byte (fps aside), failing pairs are reported with their line while the
// others complete, a bad list is refused naming the line, relative paths come from
// the list's folder.
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/batch_run.h"
#include "cli/cli_fixture.h"
#include "core/error.h"

namespace exactvq::clitest {
namespace {

std::string without_fps(const std::string& text) {
  return std::regex_replace(text, std::regex("fps[\"=: ]*[0-9.]+\"?"), "fps");
}

class Batch : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fs::create_directories(dir_ / "videos");
    fs::create_directories(dir_ / "out");
    const VideoFormat a = make_format(23, 17);
    const VideoFormat b = make_format(32, 18, ChromaFormat::k422, 10);
    write_y4m("videos/a_ref.y4m", a, 5, 0);
    write_y4m("videos/a_dist.y4m", a, 5, 1);
    write_y4m("videos/b_ref.y4m", b, 4, 0);
    write_y4m("videos/b_dist.y4m", b, 4, 2);
    const VideoFormat raw = make_format(20, 12, ChromaFormat::k420, 8);
    write("videos/c_ref.yuv", raw_bytes(raw, make_frames(raw, 3, 0)));
    write("videos/c_dist.yuv", raw_bytes(raw, make_frames(raw, 3, 3)));
    write("videos/bad.y4m", "YUV4MPEG2 W16 H0 F25:1 C420jpeg\n");
  }

  // The single-pair CLI run's output for (ref, dist, extra) into out/single.<ext>.
  std::string single(const std::string& ref, const std::string& dist, const std::string& output,
                     const std::vector<std::string>& extra) {
    std::vector<std::string> a{"-r", path(ref), "-d", path(dist), "-o", path(output)};
    a.insert(a.end(), extra.begin(), extra.end());
    const RunResult r = run_cli(a);
    EXPECT_EQ(r.status, 0) << describe(r);
    return read_file(path(output));
  }
};

// The pairs every equality test uses: (ref, dist, output, options as one string, as a list).
struct Row {
  std::string ref, dist, output, options;
  std::vector<std::string> args;
};
const std::vector<Row> kRows = {
    {"videos/a_ref.y4m", "videos/a_dist.y4m", "out/a.xml", "--feature ssim", {"--xml"}},
    {"videos/b_ref.y4m",
     "videos/b_dist.y4m",
     "out/b.json",
     "--feature 'ssim=sum=raster:chroma=true' --feature psnr=enable_apsnr=true --precision max",
     {"--json", "--feature", "ssim=sum=raster:chroma=true", "--feature", "psnr=enable_apsnr=true",
      "--precision", "max"}},
    {"videos/c_ref.yuv",
     "videos/c_dist.yuv",
     "out/c.csv",
     "-w 20 -h 12 -p 420 -b 8 --feature \"ssim=enable_db=true\"",
     {"--csv", "-w", "20", "-h", "12", "-p", "420", "-b", "8", "--feature", "ssim=enable_db=true"}},
    {"videos/a_ref.y4m",
     "videos/a_dist.y4m",
     "out/d.out",
     "--json --subsample 2 --feature ssim",
     {"--json", "--subsample", "2"}},
};

std::string csv_list(const std::vector<Row>& rows) {
  std::string text = "# a comment\nref,dist,output,options\n\n";
  for (const Row& r : rows)
    text += r.ref + "," + r.dist + "," + r.output + ",\"" +
            std::regex_replace(r.options, std::regex("\""), "\"\"") + "\"\n";
  return text;
}

std::string json_list(const std::vector<Row>& rows) {
  std::string text;
  for (size_t i = 0; i < rows.size(); ++i) {
    nlohmann::json j{{"ref", rows[i].ref}, {"dist", rows[i].dist}, {"output", rows[i].output}};
    if (i % 2)
      j["options"] = rows[i].options;  // a string
    else
      j["options"] = split_arguments(rows[i].options);  // an array
    text += j.dump() + "\n";
  }
  return text;
}

TEST_F(Batch, OutputsEqualSinglePairRuns) {
  for (const bool json : {false, true})
    for (const char* jobs : {"1", "3"}) {
      SCOPED_TRACE(std::string(json ? "JSON lines" : "CSV") + ", jobs " + jobs);
      fs::remove_all(dir_ / "out");
      fs::create_directories(dir_ / "out");
      const std::string list =
          write(json ? "list.jsonl" : "list.csv", json ? json_list(kRows) : csv_list(kRows));
      const RunResult r = run_cli({"--batch", list, "--batch-jobs", jobs, "--threads", "2"});
      ASSERT_EQ(r.status, 0) << describe(r);
      for (const Row& row : kRows) {
        const std::string expected = single(row.ref, row.dist, "single.out", row.args);
        const std::string got = read_file(path(row.output));
        EXPECT_EQ(without_fps(got), without_fps(expected)) << row.output;
        if (row.output.ends_with(".csv")) {
          EXPECT_EQ(got, expected) << row.output;
        }
      }
      // The summary on stdout: CSV, one line per pair in list order.
      EXPECT_TRUE(r.out.starts_with("line,ref,dist,output,status,frames,ssim,error\n"))
          << describe(r);
      EXPECT_NE(r.out.find("," + path("out/a.xml") + ",ok,5,"), std::string::npos) << r.out;
      EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + long(kRows.size())) << r.out;
    }
}

TEST_F(Batch, SharedOptionsApplyToEveryPair) {
  const std::string list = write("list.csv",
                                 "ref,dist,output\nvideos/a_ref.y4m,videos/a_dist.y4m,out/a.csv\n"
                                 "videos/b_ref.y4m,videos/b_dist.y4m,out/b.csv\n");
  const RunResult r = run_cli({"--batch", list, "--feature", "psnr", "--precision", "max", "-q"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(path("out/a.csv")),
            single("videos/a_ref.y4m", "videos/a_dist.y4m", "s.csv",
                   {"--csv", "--feature", "psnr", "--precision", "max"}));
  EXPECT_EQ(read_file(path("out/b.csv")),
            single("videos/b_ref.y4m", "videos/b_dist.y4m", "s.csv",
                   {"--csv", "--feature", "psnr", "--precision", "max"}));
}

TEST_F(Batch, FailingPairsAreReportedAndTheOthersComplete) {
  const std::string list =
      write("list.csv",
            "ref,dist,output,options\n"
            "videos/a_ref.y4m,videos/a_dist.y4m,out/ok1.csv,\n"
            "videos/missing.y4m,videos/a_dist.y4m,out/missing.csv,\n"
            "videos/bad.y4m,videos/a_dist.y4m,out/bad.csv,\n"
            "videos/a_ref.y4m,videos/a_dist.y4m,out/unknown.csv,--no-such-option\n"
            "videos/a_ref.y4m,videos/b_dist.y4m,out/mismatch.csv,\n"
            "videos/b_ref.y4m,videos/b_dist.y4m,out/ok2.json,\n");
  const RunResult r = run_cli({"--batch", list, "--batch-summary", path("summary.json"),
                               "--batch-jobs", "2", "--feature", "ssim"});
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_TRUE(fs::exists(path("out/ok1.csv")));
  EXPECT_TRUE(fs::exists(path("out/ok2.json")));
  for (const char* failed :
       {"out/missing.csv", "out/bad.csv", "out/unknown.csv", "out/mismatch.csv"})
    EXPECT_FALSE(fs::exists(path(failed))) << failed;
  EXPECT_EQ(list_dir(dir_ / "out").size(), 2u) << "no temporary files left";
  for (int line : {3, 4, 5, 6})
    EXPECT_NE(r.err.find(fmt::format("list.csv:{}: failed: ", line)), std::string::npos)
        << line << describe(r);
  EXPECT_NE(r.err.find("missing.y4m"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("--no-such-option"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("6 pairs, 2 scored, 4 failed"), std::string::npos) << describe(r);
  const auto summary = nlohmann::json::parse(read_file(path("summary.json")));
  EXPECT_EQ(summary["scored"], 2);
  EXPECT_EQ(summary["failed"], 4);
  ASSERT_EQ(summary["pairs"].size(), 6u);
  const std::vector<std::string> status{"ok", "failed", "failed", "failed", "failed", "ok"};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(summary["pairs"][i]["line"], int(i) + 2);
    EXPECT_EQ(summary["pairs"][i]["status"], status[i]) << i;
    if (status[i] == "failed") {
      EXPECT_FALSE(summary["pairs"][i]["error"].get<std::string>().empty());
    }
  }
  EXPECT_EQ(summary["pairs"][0]["frames"], 5);
  EXPECT_TRUE(summary["pairs"][0]["pooled_mean"]["ssim"].is_number());
}

TEST_F(Batch, RelativePathsComeFromTheListFolder) {
  // The list in videos/, the run from elsewhere: "a_ref.y4m" is videos/a_ref.y4m.
  const std::string list =
      write("videos/list.csv", "ref,dist,output\na_ref.y4m,a_dist.y4m,../out/a.csv\n");
  const RunResult r = run_shell(
      "cd / && exec \"$@\"", {EXACTVQ_CLI_PATH, "--batch", list, "-q", "--feature", "ssim", "-n"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(read_file(path("out/a.csv")),
            single("videos/a_ref.y4m", "videos/a_dist.y4m", "s.csv", {"--csv"}));
}

TEST_F(Batch, BadListsAreRefusedNamingTheLine) {
  struct Bad {
    std::string name, text, needle;
  };
  const std::vector<Bad> bad = {
      {"l1.csv", "ref,dist,output\nvideos/a_ref.y4m,videos/a_dist.y4m\n",
       "l1.csv:2: 2 fields where the header has 3"},
      {"l2.csv", "ref,dist\na,b\n", "l2.csv:1: the header has no 'output' column"},
      {"l3.csv", "ref,dist,output,colour\n", "l3.csv:1: unknown column 'colour'"},
      {"l4.csv", "ref,dist,output\na,b,\"c\n", "l4.csv:2: a quoted field is not closed"},
      {"l5.csv", "ref,dist,output\na,b,c\na,d,./c\n", "l5.csv:3: output"},
      {"l6.csv", "ref,dist,output,options\na,b,c,\"--feature 'ssim\"\n", "l6.csv:2: options"},
      {"l7.jsonl", "{\"ref\": \"a\", \"dist\": \"b\", \"output\": \"c\"}\n{\"ref\": \"a\",\n",
       "l7.jsonl:2: not valid JSON"},
      {"l8.jsonl", "{\"ref\": \"a\", \"dist\": \"b\"}\n", "l8.jsonl:1: \"output\" is missing"},
      {"l9.jsonl", "{\"ref\": \"a\", \"dist\": \"b\", \"output\": \"c\", \"colour\": 1}\n",
       "l9.jsonl:1: unknown key \"colour\""},
      {"l10.csv", "# nothing\n\n", "l10.csv: the list names no pairs"},
      {"l11.csv", "ref,dist,output\n-,b,c\n", "l11.csv:2: ref '-'"},
  };
  for (const Bad& b : bad) {
    const std::string list = write(b.name, b.text);
    const RunResult r = run_cli({"--batch", list});
    EXPECT_EQ(r.status, kExitFailure) << b.name << describe(r);
    EXPECT_NE(r.err.find(b.needle), std::string::npos)
        << b.name << ": wanted '" << b.needle << "'\n"
        << describe(r);
    EXPECT_EQ(r.out, "") << b.name;
  }
  const RunResult missing = run_cli({"--batch", path("nope.csv")});
  EXPECT_EQ(missing.status, kExitFailure);
  EXPECT_NE(missing.err.find("nope.csv: cannot open the list"), std::string::npos)
      << describe(missing);
}

TEST_F(Batch, UsageErrors) {
  const std::string list = write("list.csv", "ref,dist,output\na,b,c\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--batch", list, "-r", "x.y4m"},
        {"--batch", list, "-o", "x.xml"},
        {"--batch", list, "--batch-jobs", "0"},
        {"--batch-jobs", "2", "-r", "a", "-d", "b"},
        {"--batch", ""},
        {"--batch", list, "--batch-summary", ""}}) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, kExitUsage) << describe(r);
    EXPECT_NE(r.err.find("Try 'exactvq --help'"), std::string::npos) << describe(r);
  }
}

TEST(SplitArguments, LikeAShell) {
  EXPECT_EQ(split_arguments(""), std::vector<std::string>{});
  EXPECT_EQ(split_arguments("  -w 1920\t-h  1080 "),
            (std::vector<std::string>{"-w", "1920", "-h", "1080"}));
  EXPECT_EQ(split_arguments("--plot 'a b.svg' \"c \\\"d\\\"\" e\\ f ''"),
            (std::vector<std::string>{"--plot", "a b.svg", "c \"d\"", "e f", ""}));
  EXPECT_EQ(split_arguments("x'y'\"z\""), std::vector<std::string>{"xyz"});
  EXPECT_THROW(split_arguments("'open"), UsageError);
  EXPECT_THROW(split_arguments("\"open"), UsageError);
  EXPECT_THROW(split_arguments("end\\"), UsageError);
}

}  // namespace
}  // namespace exactvq::clitest

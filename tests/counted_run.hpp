// doctest's run, failed when it ran no test case. ctest runs each case by its name
// (--test-case=NAME); a name that ctest's lists cut apart (at a ';') or that matches nothing
// would otherwise run nothing and pass.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>

namespace spmesh::test {

inline int& test_cases_started() {
  static int count = 0;
  return count;
}

// Counts the test cases that start; reports nothing.
struct CaseCounter : doctest::IReporter {
  explicit CaseCounter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override { ++test_cases_started(); }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

inline int counted_run(doctest::Context& context) {
  const int failures = context.run();
  if (context.shouldExit() || failures != 0) return failures;
  if (test_cases_started() == 0) {
    std::fprintf(stderr, "no test case ran: the filter matched none (a name with a ';' is cut apart by ctest)\n");
    return 1;
  }
  return 0;
}

}  // namespace spmesh::test

REGISTER_LISTENER("case_counter", 1, spmesh::test::CaseCounter);

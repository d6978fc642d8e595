// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect report SCENARIO -o FILE.html|FILE.pdf: the plan (and a run)
// as one self-contained document, drawn with the studio's views offscreen.
#include <QApplication>
#include <QPageSize>
#include <QRegularExpression>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli_args.h"
#include "commands.h"
#include "derived/job/job_data.h"
#include "derived/run/plan_prediction.h"
#include "derived/run/run_index.h"
#include "export/run_figures.h"
#include "job_record/job_record_error.h"
#include "output_paths.h"
#include "progress_line.h"
#include "report/report_file.h"
#include "report_command.h"
#include "run/runner.h"
#include "runtime/allocator_policy.h"
#include "types/figures.h"

namespace hsdp::cli {

const char* const kReportHelp =
    R"(usage: hsdp-inspect report [options] SCENARIO -o FILE.html|FILE.pdf
                                                 (SCENARIO "-": standard input)

Writes one self-contained document about the scenario's plan, for design
reviews, bug reports and hand-outs: title, scenario and description, date,
tool version and the command that reproduces it; a summary (world size,
meshes, parameters, numel and bytes, groups, batches, replica count,
verdict); diagnostics by severity with their parameters; per HSDP group its
layout, batches, owners, loads and imbalance; the mesh with owners, the
owner-balance charts, the fused buffer of the largest gathered batch (with
--run) and the tensor layout of each parameter with a hazard; the TP
lowering table; with --run the verification (every mismatch text in full),
collectives, bytes and NCCL-tests bandwidths per op and mesh dim, the
slowest steps and, in reference mode, the wrong rows drawn; with --job the
job check. Long tables show their worst rows; the appendix holds them
whole. The same document as the studio's File > Export Report.

HTML: one file, pictures embedded, no script, no external reference,
readable on a phone and printable. PDF: searchable text, vector pictures,
numbered pages, table rows never split. No display needed (offscreen).

options:
  -o, --output FILE   the report; .html or .pdf chooses the format (required)
  --run               also run the plan (as `hsdp-inspect run`) and report it
  --mode MODE         with --run: corrected (default) or reference (the
                      reference implementation's algorithms; a corrected run
                      follows, and the wrong rows are drawn against it)
  --cluster NAME|FILE also predict the optimizer step on a cluster (a preset:
                      a100-dgx, h100-dgx, h200-hgx, loopback; or an
                      hsdp-cluster/1 file): a "Cost on" section with the step
                      time, phases, critical path, per-rank peak memory, the
                      predicted timeline and the memory per rank; with --run
                      also the run above its prediction at the run's shapes
  --job DUMPS         also hold a job's Flight Recorder dumps (a folder of them,
                      or one dump) against the plan, as `hsdp-inspect
                      check-job` does: a "Job check" section with every
                      divergence in one sentence
  --title TEXT        the document's title (default: "HSDP plan report: NAME")
  --page SIZE         PDF page size: a4 (default) or letter
  --                  end of options (for a SCENARIO starting with '-')
  -h, --help          show this help
  --version           print the version

exit status: 0 written; 1 written, and the plan has error diagnostics (with
--cluster, out-of-memory too), the run did not verify or the job diverged from the plan; 2 unreadable scenario
or job record, unwritable output (the message names the file) or bad usage.
The file is written atomically: it appears whole or not at all.
)";

namespace {

QtMessageHandler qtHandler = nullptr;

// Offscreen Qt warns that XDG_RUNTIME_DIR is unset on every headless
// machine, and the offscreen platform that it cannot propagate a window's
// size hints (a widget drawn into a picture is never a window on screen);
// a command-line tool keeps its stderr for what matters: only these two
// known, harmless lines are dropped.
void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))) return;
    if (type == QtWarningMsg &&
        message == QLatin1String("This plugin does not support propagateSizeHints()"))
        return;
    if (qtHandler) qtHandler(type, context, message);
}

// Widgets need a platform: without a display, draw offscreen.
std::unique_ptr<QApplication> makeApplication() {
    qtHandler = qInstallMessageHandler(quietHandler);
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") &&
        !std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    static int argc = 1;
    static char name[] = "hsdp-inspect";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

// The command as typed, quoted for a POSIX shell where needed.
QString commandLine(const std::vector<std::string>& args) {
    QStringList words = {QStringLiteral("hsdp-inspect"), QStringLiteral("report")};
    for (const std::string& a : args) {
        QString word = QString::fromStdString(a);
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./=:,+-]+$"));
        if (!plain.match(word).hasMatch())
            word = QLatin1Char('\'') + word.replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                   QLatin1Char('\'');
        words << word;
    }
    return words.join(QLatin1Char(' '));
}

QPageSize::PageSizeId pageSize(const ArgParser& parser) {
    const std::string page = parser.value("--page").value_or("a4");
    if (page == "a4" || page == "A4") return QPageSize::A4;
    if (page == "letter" || page == "Letter") return QPageSize::Letter;
    throw UsageError("--page expects 'a4' or 'letter', got '" + page + "'");
}

// `cluster` (may be null): what the run is predicted on.
RunData runForReport(const PlanResult& plan, RunMode mode, std::shared_ptr<const Cluster> cluster) {
    RunOptions options;
    options.mode = mode;
    useCachingAllocator();
    ProgressLine progress;
    options.progress = [&](double f, const std::string& what) { progress.update(f, what); };
    auto result = std::make_shared<RunResult>(runPlan(*plan.scenario, *plan.plan, options));
    progress.finish();
    noteRealSizeCollectives(*plan.scenario, *plan.plan, *result);
    return preparedRun(plan, std::move(result), std::move(cluster));
}

}  // namespace

// "2.51 s wall for the whole command (the run 2.15 s wall, writing the file
// 0.23 s)": what each figure measures, named.
std::string timingText(double command, const ReportInput& input, double writing) {
    std::string text = wallTimeText(command) + " for the whole command (";
    if (input.run.isValid()) {
        double run = input.run.run->seconds;
        if (input.comparison.isValid()) run += input.comparison.run->seconds;
        text += std::string(input.comparison.isValid() ? "the runs " : "the run ") +
                wallTimeText(run) + ", ";
    }
    return text + "writing the file " + secondsText(writing) + ")";
}

int writeReportCommand(const std::vector<std::string>& given) {
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::string> args = given;
    for (auto& a : args)
        if (a == "-o") a = "--output";  // the one short option of the tool
    ArgParser parser;
    parser.flag("--run").option("--output").option("--mode").option("--title").option("--page");
    parser.option("--cluster").option("--job");
    parser.parse(args);
    if (parser.positionals().size() != 1)
        throw UsageError("report takes exactly one SCENARIO file");
    const std::optional<std::string> output = parser.value("--output");
    if (!output) throw UsageError("report needs -o FILE.html or -o FILE.pdf");
    if (!reportFormatFor(QString::fromStdString(*output)))
        throw UsageError("-o '" + *output + "': the name must end in .html or .pdf");
    checkOutputFile("-o", *output);
    const std::string mode = parser.value("--mode").value_or("corrected");
    if (mode != "corrected" && mode != "reference")
        throw UsageError("--mode expects 'corrected' or 'reference', got '" + mode + "'");
    if (parser.has("--mode") && !parser.has("--run"))
        throw UsageError("--mode chooses how --run runs; give --run too");
    const QPageSize::PageSizeId page = pageSize(parser);

    std::shared_ptr<const Cluster> cluster;
    if (auto name = parser.value("--cluster")) {
        std::optional<Cluster> read = loadCluster(*name);
        if (!read) return 2;
        cluster = std::make_shared<const Cluster>(std::move(*read));
    }
    std::optional<Scenario> scenario = loadScenario(parser.positionals()[0]);
    if (!scenario) return 2;
    auto app = makeApplication();
    ReportInput input;
    input.plan =
        computePlanResult(std::move(*scenario), QString::fromStdString(parser.positionals()[0]));
    input.plan.prediction = predictPlan(input.plan, cluster);
    if (parser.has("--run")) {
        const bool reference = mode == "reference";
        input.run =
            runForReport(input.plan, reference ? RunMode::Reference : RunMode::Corrected, cluster);
        // The wrong rows are drawn against what a corrected run gathered.
        if (reference) input.comparison = runForReport(input.plan, RunMode::Corrected, nullptr);
    }
    if (auto dumps = parser.value("--job")) {
        try {
            input.job = computeJobData(input.plan, {QString::fromStdString(*dumps)});
        } catch (const JobRecordError& error) {
            std::cerr << "hsdp-inspect: " << error.what() << "\n";
            return 2;
        }
    }
    input.title = QString::fromStdString(parser.value("--title").value_or(""));
    input.command = commandLine(given);
    const ReportFileResult result = writeReportFile(input, QString::fromStdString(*output), page);
    if (!result.error.isEmpty()) {
        std::cerr << "hsdp-inspect: " << result.error.toStdString() << "\n";
        return 2;
    }
    const double command =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cerr << "hsdp-inspect: wrote " << *output << " in "
              << timingText(command, input, result.seconds)
              << (result.findings
                      ? "; the plan has errors, the run did not verify or the job diverged"
                      : "")
              << "\n";
    return result.findings ? 1 : 0;
}

}  // namespace hsdp::cli

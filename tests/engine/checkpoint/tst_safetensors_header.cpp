// SPDX-License-Identifier: Apache-2.0
// The safetensors header reader, a pure function over a file's first bytes:
// what a valid header gives, and every input it refuses with the file and
// the tensor named (the length against the cap and the file's end, JSON,
// UTF-8, duplicates, dtypes, shapes, data_offsets that overlap, leave holes
// or leave the file). Random corruptions of a valid header are refused with
// a CheckpointError, never anything worse.
#include <QtTest>

#include <random>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/safetensors_header.h"
#include "safetensors_writer.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

const std::string kFile = "model-00001-of-00002.safetensors";

// A file of `json` with `data` bytes after it.
SafetensorsHeader read(const std::string& json, uint64_t data) {
    const std::string bytes = safetensorsPrefix(json);
    return readSafetensorsHeader(bytes, kFile, bytes.size() + data);
}

std::string tensor(const std::string& name, const std::string& dtype, const std::string& shape,
                   uint64_t begin, uint64_t end) {
    return "\"" + name + "\": {\"dtype\": \"" + dtype + "\", \"shape\": " + shape +
           ", \"data_offsets\": [" + std::to_string(begin) + ", " + std::to_string(end) + "]}";
}

}  // namespace

class TestSafetensorsHeader : public QObject {
    Q_OBJECT
private slots:
    void readsTensorsAndMetadata() {
        const std::vector<TensorSpec> specs = {{"model.embed_tokens.weight", "BF16", {8, 4}, {}},
                                               {"model.norm.weight", "F32", {4}, {}},
                                               {"scale", "F64", {}, {}},
                                               {"empty", "F16", {0, 3}, {}},
                                               {"packed", "F4", {2, 3}, {}}};
        const std::string json = safetensorsHeaderJson(specs, {{"format", "pt"}});
        const std::string bytes = safetensorsBytes(json, dataBytesOf(specs));
        const SafetensorsHeader h = readSafetensorsHeader(bytes, kFile, bytes.size());
        QCOMPARE(h.jsonBytes, uint64_t(json.size()));
        QCOMPARE(h.dataBytes, uint64_t(64 + 16 + 8 + 0 + 3));
        QCOMPARE(h.tensors.size(), size_t(5));
        QCOMPARE(h.tensors[0].name, std::string("model.embed_tokens.weight"));
        QCOMPARE(h.tensors[0].dtype->name, std::string_view("BF16"));
        QCOMPARE(h.tensors[0].dtype->scenario, std::optional(DType::BF16));
        QCOMPARE(h.tensors[0].shape, (std::vector<int64_t>{8, 4}));
        QCOMPARE(h.tensors[1].dataBegin, uint64_t(64));
        QCOMPARE(h.tensors[2].shape.size(), size_t(0));
        QCOMPARE(h.tensors[2].numel(), int64_t(1));
        QCOMPARE(h.tensors[3].numel(), int64_t(0));
        QVERIFY(
            !h.tensors[4].dtype->scenario);  // fp4: the reader knows it, a scenario cannot hold it
        QVERIFY(h.hasMetadata);
        QCOMPARE(*h.metadataValue("format"), std::string("pt"));
        QVERIFY(!h.metadataValue("DCP_SHARDING_INFO"));
        // Bytes after the header are never looked at: a prefix is enough.
        const SafetensorsHeader fromPrefix =
            readSafetensorsHeader(safetensorsPrefix(json), kFile, bytes.size());
        QCOMPARE(fromPrefix.tensors.size(), size_t(5));
    }

    void acceptsWhatTheLibraryAccepts() {
        // Keys in any order, unknown keys ignored, an empty header, whitespace padding.
        const SafetensorsHeader h = read(
            "{\"w\": {\"data_offsets\": [0, 4], \"extra\": {\"a\": [1, {}]}, \"shape\": [2], "
            "\"dtype\": \"F16\"}}    ",
            4);
        QCOMPARE(h.tensors.size(), size_t(1));
        QCOMPARE(h.tensors[0].shape, std::vector<int64_t>{2});
        QCOMPARE(read("{}      ", 0).tensors.size(), size_t(0));
    }

    void refusesBadInput_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<quint64>("fileSize");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QString>("problem");
        const auto row = [](const char* tag, const std::string& bytes, uint64_t size,
                            const char* tensor, const char* problem) {
            QTest::newRow(tag) << QByteArray::fromStdString(bytes) << quint64(size)
                               << QString(tensor) << QString(problem);
        };
        const auto file = [](const std::string& json, uint64_t data) {
            return std::pair(safetensorsPrefix(json), safetensorsPrefix(json).size() + data);
        };
        const auto add = [&](const char* tag, const std::string& json, uint64_t data,
                             const char* tensorName, const char* problem) {
            auto [bytes, size] = file(json, data);
            row(tag, bytes, size, tensorName, problem);
        };
        row("shorter than 8 bytes", "abc", 3, "", "shorter than the 8-byte header length");
        row("header over 100 MiB", safetensorsPrefix("{}", (uint64_t(100) << 20) + 1),
            uint64_t(1) << 40, "", "more than the 100 MiB");
        row("length past the end", safetensorsPrefix("{}", 1000), 100, "",
            "goes past the file's end");
        row("length near 2^64", safetensorsPrefix("{}", ~uint64_t(0) - 3), 100, "",
            "more than the 100 MiB");
        add("not JSON", "{\"a\": {\"dtype\": \"F32\", ", 0, "a", "not valid JSON");
        add("header is an array", "[1, 2]  ", 0, "", "the header is an array, not a JSON object");
        add("header is a string", "\"hello\" ", 0, "", "the header is a string");
        add("entry not an object", "{\"w\": [1, 2]}", 0, "w", "expected an object");
        add("invalid UTF-8 in a name",
            "{" + tensor("first", "F32", "[1]", 0, 4) + ", \"bad\xff\": {}}", 4, "",
            "invalid UTF-8 (byte 0xFF) at byte");
        add("invalid UTF-8 in a dtype", "{\"w\": {\"dtype\": \"F\xc3\x28\"}}", 0, "w",
            "invalid UTF-8");
        add("NUL byte", std::string("{\"w\": {\"dtype\": \"F32\"\0}}", 25), 0, "w", "NUL byte");
        add("duplicate name",
            "{" + tensor("w", "F32", "[1]", 0, 4) + ", " + tensor("w", "F32", "[1]", 4, 8) + "}", 8,
            "w", "the name is given twice");
        add("duplicate key",
            "{\"w\": {\"dtype\": \"F32\", \"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": "
            "[0, 4]}}",
            4, "w", "key \"dtype\" is given twice");
        add("unknown dtype", "{" + tensor("w", "Q8", "[1]", 0, 1) + "}", 1, "w",
            "unknown dtype \"Q8\"");
        add("dtype not a string",
            "{\"w\": {\"dtype\": 3, \"shape\": [1], \"data_offsets\": [0, 4]}}", 4, "w",
            "dtype: expected a string");
        add("negative dim", "{" + tensor("w", "F32", "[-1]", 0, 4) + "}", 4, "w",
            "shape: -1 is negative");
        add("fractional dim", "{" + tensor("w", "F32", "[1.5]", 0, 4) + "}", 4, "w",
            "not an integer");
        add("shape not an array",
            "{\"w\": {\"dtype\": \"F32\", \"shape\": 4, \"data_offsets\": [0, 4]}}", 4, "w",
            "shape: expected an array");
        add("no data_offsets", "{\"w\": {\"dtype\": \"F32\", \"shape\": [1]}}", 0, "w",
            "no \"data_offsets\"");
        add("element count overflow",
            "{" + tensor("w", "F32", "[4294967296, 4294967296]", 0, 4) + "}", 4, "w",
            "overflows 64 bits");
        add("three offsets",
            "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4, 8]}}", 8, "w",
            "expected [begin, end], got 3 numbers");
        add("begin after end", "{" + tensor("w", "F32", "[1]", 8, 4) + "}", 8, "w",
            "begin 8 is after end 4");
        add("end past the data", "{" + tensor("w", "F32", "[4]", 0, 16) + "}", 8, "w",
            "end past the data section's 8 bytes");
        add("size disagrees with shape", "{" + tensor("w", "BF16", "[2, 3]", 0, 10) + "}", 10, "w",
            "hold 10 bytes, but [2, 3] BF16 needs 12");
        add("odd fp4 count", "{" + tensor("w", "F4", "[3]", 0, 1) + "}", 1, "w",
            "is 12 bits, not whole bytes");
        add("overlap",
            "{" + tensor("a", "F32", "[2]", 0, 8) + ", " + tensor("b", "F32", "[2]", 4, 12) + "}",
            12, "b", "overlap tensor a's [0, 8)");
        add("hole",
            "{" + tensor("a", "F32", "[1]", 0, 4) + ", " + tensor("b", "F32", "[1]", 8, 12) + "}",
            12, "b", "bytes [4, 8) of the data section before it belong to no tensor");
        add("trailing bytes", "{" + tensor("a", "F32", "[1]", 0, 4) + "}", 10, "a",
            "last 6 bytes after this tensor belong to no tensor");
        add("metadata not an object", "{\"__metadata__\": [\"x\"]}", 0, "",
            "__metadata__ is an array");
        add("metadata value not a string", "{\"__metadata__\": {\"format\": 1}}", 0, "",
            "__metadata__: the value of \"format\" is a number");
    }

    void refusesBadInput() {
        QFETCH(QByteArray, bytes);
        QFETCH(quint64, fileSize);
        QFETCH(QString, tensor);
        QFETCH(QString, problem);
        try {
            readSafetensorsHeader(bytes.toStdString(), kFile, fileSize);
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            QCOMPARE(QString::fromStdString(error.file), QString::fromStdString(kFile));
            QCOMPARE(QString::fromStdString(error.tensor), tensor);
            QVERIFY2(QString::fromStdString(error.what()).contains(problem), error.what());
            QVERIFY2(QString::fromStdString(error.what()).startsWith(QString::fromStdString(kFile)),
                     error.what());
        }
    }

    void invalidUtf8InANameSaysWhichTensorItFollows() {
        const std::string json = "{" + tensor("first", "F32", "[1]", 0, 4) + ", \"bad\xff\": {}}";
        try {
            read(json, 4);
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            QVERIFY2(std::string(error.what()).find("after tensor first") != std::string::npos,
                     error.what());
        }
    }

    // A header the length promises but the caller did not pass is refused, not read past.
    void aShortBufferIsRefused() {
        const std::string json = safetensorsHeaderJson({{"w", "F32", {1}, {}}});
        const std::string bytes = safetensorsPrefix(json).substr(0, 20);
        QVERIFY_THROWS_EXCEPTION(CheckpointError, readSafetensorsHeader(bytes, kFile, 1000));
    }

    // Corrupted bytes of a valid header: a CheckpointError or a header, never a crash.
    void corruptionsAreRefusedCleanly() {
        const std::vector<TensorSpec> specs = {
            {"model.layers.0.mlp.up_proj.weight", "BF16", {4, 2}, {}},
            {"model.layers.0.mlp.down_proj.weight", "BF16", {2, 4}, {}},
            {"model.norm.weight", "F32", {2}, {}}};
        const std::string json = safetensorsHeaderJson(specs, {{"format", "pt"}});
        const std::string valid = safetensorsBytes(json, dataBytesOf(specs));
        std::mt19937 random(24);
        int refused = 0, read = 0;
        for (int i = 0; i < 3000; ++i) {
            std::string bytes = valid;
            const int flips = 1 + int(random() % 3);
            for (int f = 0; f < flips; ++f) bytes[random() % bytes.size()] = char(random() % 256);
            const uint64_t size = random() % 8 == 0 ? random() % (bytes.size() + 8) : bytes.size();
            try {
                readSafetensorsHeader(bytes, kFile, size);
                ++read;
            } catch (const CheckpointError&) {
                ++refused;
            }
        }
        qInfo("3000 corruptions: %d refused, %d still valid", refused, read);
        QVERIFY(refused > 2000);
    }
};

QTEST_APPLESS_MAIN(TestSafetensorsHeader)
#include "tst_safetensors_header.moc"

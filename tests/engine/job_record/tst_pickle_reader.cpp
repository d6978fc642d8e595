// SPDX-License-Identifier: Apache-2.0
// The pickle reader (docs/job-records.md): what Python's pickle.dumps and
// PyTorch's pickler write reads as the data it is; every opcode that could
// import or call is refused by name and offset; truncated, malformed and
// hostile pickles are errors at their offset, never a crash or a hang.
#include <QtTest>

#include "job_record/pickle_reader.h"
#include "pickle_writer.h"

using namespace hsdp;
using namespace hsdp::testing;
using namespace std::string_literals;

namespace {

std::string fromHex(std::string_view hex) {
    std::string out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2)
        out += char(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
    return out;
}

// Python 3.11's pickle.dumps of
//   {"version": "2.4", "pg": ("0", "default_pg"),
//    "n": [0, 255, 256, 65535, 65536, -1, 2**31, -2**31 - 1, 1733500000123456789],
//    "f": 1.5, "t": True, "no": None, "s": "é"}
// at protocol 2 (BINPUT memo, BINUNICODE) and at protocol 4 (FRAME, MEMOIZE,
// SHORT_BINUNICODE; the dict also holds "b": b"\x00\xff").
const char* kPythonProtocol2 =
    "80027d710028580700000076657273696f6e71015803000000322e3471025802000000706771035801000000307104"
    "580a00000064656661756c745f7067710586710658010000006e71075d7108284b004bff4d00014dffff4a00000100"
    "4affffffff8a0500000080008a05ffffff7fff8a08158d7fcd10a10e18655801000000667109473ff8000000000000"
    "580100000074710a8858020000006e6f710b4e580100000073710c5802000000c3a9710d752e";
const char* kPythonProtocol4 =
    "8004958b000000000000007d94288c0776657273696f6e948c03322e34948c027067948c0130948c0a64656661756c"
    "745f70679486948c016e945d94284b004bff4d00014dffff4a000001004affffffff8a0500000080008a05ffffff7f"
    "ff8a08158d7fcd10a10e18658c016694473ff80000000000008c017494888c026e6f944e8c016294430200ff948c01"
    "73948c02c3a994752e";
// Python's protocol 2 has no opcode for bytes: pickle.dumps({"b": b"\x00\xff"},
// protocol=2) calls _codecs.encode through GLOBAL (offset 13) and REDUCE.
const char* kPythonBytesProtocol2 =
    "80027d71005801000000627101635f636f646563730a656e636f64650a7102580300000000c3bf710358060000006c"
    "6174696e317104867105527106732e";

Json pythonValue(bool withBytes) {
    Json value = {{"version", "2.4"},
                  {"pg", {"0", "default_pg"}},
                  {"n",
                   {0, 255, 256, 65535, 65536, -1, int64_t(1) << 31, -(int64_t(1) << 31) - 1,
                    int64_t(1733500000123456789)}},
                  {"f", 1.5},
                  {"t", true},
                  {"no", nullptr}};
    if (withBytes) value["b"] = Json::binary({0x00, 0xff});
    value["s"] = "\xc3\xa9";
    return value;
}

void expectRefusal(const std::string& bytes, const std::string& mentions, size_t offset) {
    try {
        readPickle(bytes);
        QFAIL(qPrintable("no error; expected one mentioning " + QString::fromStdString(mentions)));
    } catch (const JobRecordError& e) {
        const std::string message = e.what();
        QVERIFY2(message.find(mentions) != std::string::npos, e.what());
        QCOMPARE(e.where, "offset " + std::to_string(offset));
    }
}

std::string proto2(const std::string& body) {
    return "\x80\x02"s + body;
}

}  // namespace

class TestPickleReader : public QObject {
    Q_OBJECT
private slots:
    void readsWhatPythonWrites_data() {
        QTest::addColumn<QString>("hex");
        QTest::addColumn<bool>("withBytes");
        QTest::newRow("protocol 2") << QString(kPythonProtocol2) << false;
        QTest::newRow("protocol 4") << QString(kPythonProtocol4) << true;
        // Protocol 5 writes the same opcodes as 4 for plain data.
        QTest::newRow("protocol 5") << QString(kPythonProtocol4).replace(0, 4, "8005") << true;
    }
    void readsWhatPythonWrites() {
        QFETCH(QString, hex);
        QFETCH(bool, withBytes);
        const Json value = readPickle(fromHex(hex.toStdString()));
        QCOMPARE(value.dump(), pythonValue(withBytes).dump());
        // Keys stay in file order, as the dict had them.
        QCOMPARE(value.begin().key(), std::string("version"));
    }

    void bytesAtProtocol2AreACallAndRefused() {
        expectRefusal(fromHex(kPythonBytesProtocol2), "refused opcode GLOBAL (0x63)", 13);
    }

    // What the test writer makes (PyTorch's way at 2, Python's at 4) reads back.
    void writtenValuesReadBack_data() {
        QTest::addColumn<int>("protocol");
        QTest::newRow("2") << 2;
        QTest::newRow("4") << 4;
    }
    void writtenValuesReadBack() {
        QFETCH(int, protocol);
        Json many = Json::array();
        for (int i = 0; i < 300; ++i)
            many.push_back("s" + std::to_string(i % 280));  // LONG_BINPUT past 255
        const Json value = {{"empty_list", Json::array()},
                            {"empty_dict", Json::object()},
                            {"one", {7}},
                            {"nested", {{"a", {{"b", {1.25, -3}}}}}},
                            {"long", std::string(300, 'x')},
                            {"many", many},
                            {"big", int64_t(-1) << 62}};
        QCOMPARE(readPickle(writePickle(value, protocol)).dump(), value.dump());
    }

    void tuplesReadAsArrays() {
        const Json value = {{"t1", pickleTuple({1})},
                            {"t2", pickleTuple({"a", "b"})},
                            {"t3", pickleTuple({1, 2, 3})},
                            {"t4", pickleTuple({1, 2, 3, 4})},
                            {"t0", pickleTuple(Json::array())}};
        QCOMPARE(readPickle(writePickle(value)).dump(), plainJson(value).dump());
    }

    // Pickle memoizes a container before filling it: a later BINGET must see
    // it filled, and sees the same container each time.
    void memoReferencesSeeFilledContainers() {
        // Python: l = ["x"]; pickle.dumps({"a": l, "b": l}, protocol=2)
        const Json value =
            readPickle(fromHex("80027d71002858010000006171015d7102580100000078710361580100000062"
                               "71046802752e"));
        QCOMPARE(value.dump(), Json({{"a", {"x"}}, {"b", {"x"}}}).dump());
        const Json shared = {
            {"frames", {{{"name", "f"}, {"line", 1}}, {{"name", "f"}, {"line", 1}}}}};
        QCOMPARE(readPickle(writePickle(shared, 2, /*shareEqualDicts=*/true)).dump(),
                 shared.dump());
    }

    void integersAndFloatsKeepTheirValues() {
        // LONG1 of 0 bytes is 0; of 1 byte 0xff is -1; BINFLOAT is big-endian.
        QCOMPARE(readPickle(proto2("\x8a\x00."s)).get<int64_t>(), int64_t(0));
        QCOMPARE(readPickle(proto2("\x8a\x01\xff."s)).get<int64_t>(), int64_t(-1));
        QCOMPARE(readPickle(proto2("\x8a\x02\x00\x80."s)).get<int64_t>(), int64_t(-32768));
        QCOMPARE(readPickle(proto2("G\xc0\x04\x00\x00\x00\x00\x00\x00."s)).get<double>(), -2.5);
        QCOMPARE(readPickle(proto2("J\xff\xff\xff\xff."s)).get<int64_t>(), int64_t(-1));
        expectRefusal(proto2("\x8a\x09" + std::string(9, '\x01') + "."), "LONG1 of 9 bytes", 2);
    }

    // Every opcode that imports, calls or asks the unpickler to: refused by
    // name at its offset, whatever follows it (pickletools' names and codes).
    void everyUnsafeOpcodeIsRefused_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("name");
        const std::pair<int, const char*> unsafe[] = {
            {'c', "GLOBAL"},   {0x93, "STACK_GLOBAL"}, {'R', "REDUCE"},     {'i', "INST"},
            {'o', "OBJ"},      {0x81, "NEWOBJ"},       {0x92, "NEWOBJ_EX"}, {'b', "BUILD"},
            {0x82, "EXT1"},    {0x83, "EXT2"},         {0x84, "EXT4"},      {'P', "PERSID"},
            {'Q', "BINPERSID"}};
        for (const auto& [code, name] : unsafe) QTest::newRow(name) << code << QString(name);
    }
    void everyUnsafeOpcodeIsRefused() {
        QFETCH(int, code);
        QFETCH(QString, name);
        char hexCode[8];
        std::snprintf(hexCode, sizeof hexCode, "0x%02x", code);
        const std::string mention = "refused opcode " + name.toStdString() + " (" + hexCode + ")";
        // Right after PROTO, and deeper inside a dict after some data.
        expectRefusal(proto2(std::string(1, char(code)) + "os\nsystem\n"), mention, 2);
        const std::string prefix = "}q\x00(X\x01\x00\x00\x00k"s;  // some data first
        expectRefusal(proto2(prefix + char(code) + "builtins\neval\n"), mention, 2 + prefix.size());
    }

    void unsupportedOpcodesAreNamed_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("name");
        const std::pair<int, const char*> unsupported[] = {{'I', "INT"},
                                                           {'L', "LONG"},
                                                           {0x8b, "LONG4"},
                                                           {'F', "FLOAT"},
                                                           {'S', "STRING"},
                                                           {'T', "BINSTRING"},
                                                           {'U', "SHORT_BINSTRING"},
                                                           {'V', "UNICODE"},
                                                           {'p', "PUT"},
                                                           {'g', "GET"},
                                                           {'0', "POP"},
                                                           {'1', "POP_MARK"},
                                                           {'2', "DUP"},
                                                           {0x8f, "EMPTY_SET"},
                                                           {0x90, "ADDITEMS"},
                                                           {0x91, "FROZENSET"},
                                                           {0x96, "BYTEARRAY8"},
                                                           {0x97, "NEXT_BUFFER"},
                                                           {0x98, "READONLY_BUFFER"}};
        for (const auto& [code, name] : unsupported) QTest::newRow(name) << code << QString(name);
    }
    void unsupportedOpcodesAreNamed() {
        QFETCH(int, code);
        QFETCH(QString, name);
        expectRefusal(proto2("N"s + char(code) + "."), "unsupported opcode " + name.toStdString(),
                      3);
    }

    void malformedPicklesAreErrorsAtTheirOffset_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("mentions");
        QTest::addColumn<int>("offset");
        const auto row = [](const char* tag, const std::string& bytes, const char* mentions,
                            int offset) {
            QTest::newRow(tag) << QByteArray(bytes.data(), int(bytes.size())) << QString(mentions)
                               << offset;
        };
        row("not an opcode", proto2("\xff."s), "0xff is not a pickle opcode", 2);
        row("protocol 1", "\x80\x01N."s, "pickle protocol 1: expected 2 to 5", 0);
        row("no STOP", proto2("N"s), "without STOP", 3);
        row("bytes after STOP", proto2("N.junk"s), "4 bytes after STOP", 4);
        row("string cut short",
            proto2("X\x10\x00\x00\x00"
                   "abc"s),
            "truncated: BINUNICODE needs 16 more bytes", 2);
        row("length cut short", proto2("X\x10"s), "truncated: BINUNICODE needs 4 more bytes", 2);
        row("huge length", proto2("\x8d\xff\xff\xff\xff\xff\xff\xff\xff"s),
            "truncated: BINUNICODE8", 2);
        row("not UTF-8", proto2("\x8c\x02\xc3\x28."s), "not UTF-8", 2);
        row("integer key", proto2("}K\x01K\x02s."s),
            "a dictionary key must be a string, found an integer", 7);
        row("repeated key", proto2("}(X\x01\x00\x00\x00kK\x01X\x01\x00\x00\x00kK\x02u."s),
            "repeats the key \"k\"", 2);
        row("APPEND to a dict", proto2("}Na."s), "APPEND needs a list on the stack, found a dict",
            4);
        row("SETITEM with one value", proto2("}Ns."s), "SETITEM needs a dict, a key and a value",
            4);
        row("APPENDS without MARK", proto2("]e."s), "APPENDS needs a MARK", 3);
        row("empty stack at STOP", proto2("."s),
            "STOP needs exactly one value on the stack, found 0", 2);
        row("two values at STOP", proto2("NN."s), "found 2", 4);
        row("open MARK at STOP", proto2("N(."s), "STOP with a MARK still open", 4);
        row("BINGET of nothing", proto2("h\x05."s), "BINGET 5: nothing was memoized there", 2);
        row("MEMOIZE of nothing", proto2("\x94"s), "MEMOIZE needs a value", 2);
        row("TUPLE2 of one", proto2("N\x86."s), "TUPLE2 needs a value on the stack", 3);
        row("pop past MARK", proto2("N(\x85."s), "above the last MARK", 4);
        row("empty", std::string(), "the pickle is empty", -1);
    }
    void malformedPicklesAreErrorsAtTheirOffset() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, mentions);
        QFETCH(int, offset);
        const std::string input(bytes.constData(), size_t(bytes.size()));
        if (offset < 0) {
            QVERIFY_THROWS_EXCEPTION(JobRecordError, readPickle(input));
            return;
        }
        expectRefusal(input, mentions.toStdString(), size_t(offset));
    }

    // Every prefix of a real pickle is an error, never a crash or a value.
    void everyTruncationIsAnError() {
        const std::string whole = fromHex(kPythonProtocol4);
        for (size_t size = 0; size < whole.size(); ++size)
            QVERIFY_THROWS_EXCEPTION(JobRecordError, readPickle(whole.substr(0, size)));
    }

    // A list that holds itself, and memo references that double a list 40
    // times over: errors, in bounded time and memory.
    void hostilePicklesStayBounded() {
        expectRefusal(proto2("]q\x00h\x00"
                             "a."s),
                      "nested deeper than 200", 2);
        std::string doubling =
            "]q\x00K\x01"
            "a"s;                      // memo 0: [1]
        for (int i = 1; i <= 40; ++i)  // (previous, previous) as a tuple, memoized in slot i
            doubling += "h"s + char(i - 1) + "\x86q"s + char(i);
        try {
            readPickle(proto2(doubling + "."));
            QFAIL("a pickle expanding to 2^40 values was read");
        } catch (const JobRecordError& e) {
            QVERIFY2(std::string(e.what()).find("expands to more than") != std::string::npos,
                     e.what());
        }
    }

    void looksLikePickleOnlyForProtocols2To5() {
        QVERIFY(looksLikePickle("\x80\x02"s));
        QVERIFY(looksLikePickle("\x80\x05"s));
        QVERIFY(!looksLikePickle("\x80\x01"s));
        QVERIFY(!looksLikePickle("{\"version\": \"2.4\"}"));
    }
};

QTEST_APPLESS_MAIN(TestPickleReader)
#include "tst_pickle_reader.moc"

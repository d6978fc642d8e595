// SPDX-License-Identifier: Apache-2.0
// What-if fields parse strictly: the whole text is one value, or the error
// names the bad part. "8192, two" is not [8192], "2," is not [2], "0x10" is
// not [0, 10] (nor 16), and every kind round-trips the text it shows.
#include <QtTest>

#include "derived/plan/field_text.h"

using namespace hsdp;

Q_DECLARE_METATYPE(hsdp::FieldKind)

namespace {

// The backend field's choices; the other kinds ignore them.
const QStringList kChoices = {QStringLiteral("gloo"), QStringLiteral("nccl"),
                              QStringLiteral("hccl")};

QString valueText(const ParsedField& parsed) {
    if (!parsed.ok()) return QStringLiteral("error: ") + parsed.error;
    return parsed.value ? QString::fromStdString(parsed.value->dump()) : QStringLiteral("absent");
}

}  // namespace

class TestFieldText : public QObject {
    Q_OBJECT
private slots:
    void valuesRead_data();
    void valuesRead();
    void nonValuesNameTheBadPart_data();
    void nonValuesNameTheBadPart();
    void shownTextReadsBack_data();
    void shownTextReadsBack();
};

void TestFieldText::valuesRead_data() {
    QTest::addColumn<FieldKind>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("value");
    const FieldKind ints = FieldKind::Integers;
    QTest::newRow("list") << ints << "2, 4, 4"
                          << "[2,4,4]";
    QTest::newRow("brackets") << ints << "[2, 4]"
                              << "[2,4]";
    QTest::newRow("spaces") << ints << " 2  4 "
                            << "[2,4]";
    QTest::newRow("scalar shape") << ints << ""
                                  << "[]";
    QTest::newRow("ranks default") << FieldKind::Ranks << ""
                                   << "absent";
    QTest::newRow("ranks") << FieldKind::Ranks << "0, 2, 1, 3"
                           << "[0,2,1,3]";
    QTest::newRow("names") << FieldKind::Names << "dp_replicate, \"dp_shard\""
                           << R"(["dp_replicate","dp_shard"])";
    QTest::newRow("placements") << FieldKind::Placements << "R, _StridedShard(dim=0, sf=4), S(0)"
                                << R"j(["R","_StridedShard(dim=0, sf=4)","S(0)"])j";
    QTest::newRow("plain tensor") << FieldKind::Placements << ""
                                  << "[]";
    QTest::newRow("cap") << FieldKind::OptionalInt << "300000000"
                         << "300000000";
    QTest::newRow("no cap") << FieldKind::OptionalInt << "  "
                            << "absent";
    QTest::newRow("alignment") << FieldKind::Int << "256"
                               << "256";
    QTest::newRow("alignment default") << FieldKind::Int << ""
                                       << "absent";
    QTest::newRow("flag") << FieldKind::Flag << "true"
                          << "true";
    QTest::newRow("dtype") << FieldKind::DType << "torch.bfloat16"
                           << R"("torch.bfloat16")";
}

void TestFieldText::valuesRead() {
    QFETCH(FieldKind, kind);
    QFETCH(QString, text);
    QFETCH(QString, value);
    QCOMPARE(valueText(parseFieldText(kind, text, kChoices)), value);
}

void TestFieldText::nonValuesNameTheBadPart_data() {
    QTest::addColumn<FieldKind>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    const FieldKind ints = FieldKind::Integers;
    QTest::newRow("a word") << ints << "8192, two"
                            << "item 2, 'two', is not an integer";
    QTest::newRow("a word inside") << ints << "2, two, 4"
                                   << "item 2, 'two', is not an integer";
    QTest::newRow("trailing comma") << ints << "2,"
                                    << "item 2 is empty";
    QTest::newRow("double comma") << ints << "2,,4"
                                  << "item 2 is empty";
    QTest::newRow("leading comma") << ints << ", 4"
                                   << "item 1 is empty";
    QTest::newRow("hex is not 0x10") << ints << "0x10"
                                     << "item 1, '0x10', is not an integer";
    QTest::newRow("2x4 is no list") << ints << "2x4"
                                    << "item 1, '2x4', is not an integer";
    QTest::newRow("trailing garbage") << ints << "2, 4abc"
                                      << "item 2, '4abc', is not an integer";
    QTest::newRow("decimal") << ints << "2.5"
                             << "item 1, '2.5', is not an integer";
    QTest::newRow("too large") << ints << "99999999999999999999"
                               << "item 1, '99999999999999999999', is out of range";
    QTest::newRow("space inside an item") << ints << "2, 4 4"
                                          << "item 2, '4 4', is not an integer";
    QTest::newRow("open bracket") << ints << "[2, 4"
                                  << "'[' without a closing ']'";
    QTest::newRow("close bracket") << ints << "2, 4]"
                                   << "']' without an opening '['";
    QTest::newRow("nested ranks") << FieldKind::Ranks << "[[0, 2], [1, 3]]"
                                  << "item 1, '[0, 2]', is not an integer";
    QTest::newRow("ranks trailing comma") << FieldKind::Ranks << "0, 1,"
                                          << "item 3 is empty";
    QTest::newRow("name missing") << FieldKind::Names << "dp_replicate, , tp"
                                  << "item 2 is empty";
    QTest::newRow("name trailing comma") << FieldKind::Names << "dp_replicate,"
                                         << "item 2 is empty";
    QTest::newRow("lone quote") << FieldKind::Names << "\"dp_shard"
                                << "item 1, '\"dp_shard', has a lone quote";
    QTest::newRow("empty quotes") << FieldKind::Names << "a, \"\""
                                  << "item 2 is empty";
    QTest::newRow("placement typo") << FieldKind::Placements << "R, Shrad(0)"
                                    << "item 2, 'Shrad(0)', is not a placement";
    QTest::newRow("placement garbage") << FieldKind::Placements << "R, S(0)x"
                                       << "item 2, 'S(0)x', is not a placement";
    QTest::newRow("placement open paren") << FieldKind::Placements << "R, S(0"
                                          << "unbalanced parentheses";
    QTest::newRow("placement trailing comma") << FieldKind::Placements << "R, S(0),"
                                              << "item 3 is empty";
    QTest::newRow("cap word") << FieldKind::OptionalInt << "1e6"
                              << "'1e6' is not an integer";
    QTest::newRow("cap garbage") << FieldKind::OptionalInt << "1024 x"
                                 << "'1024 x' is not an integer";
    QTest::newRow("alignment word") << FieldKind::Int << "512b"
                                    << "'512b' is not an integer";
    QTest::newRow("flag") << FieldKind::Flag << "yes"
                          << "'yes' is not true or false";
    QTest::newRow("dtype") << FieldKind::DType << "bf17"
                           << "'bf17' is not a dtype";
}

void TestFieldText::nonValuesNameTheBadPart() {
    QFETCH(FieldKind, kind);
    QFETCH(QString, text);
    QFETCH(QString, error);
    ParsedField parsed = parseFieldText(kind, text, kChoices);
    QVERIFY2(!parsed.ok(), qPrintable(valueText(parsed)));
    QVERIFY2(parsed.error.contains(error), qPrintable(parsed.error));
    QVERIFY(!parsed.value);
}

void TestFieldText::shownTextReadsBack_data() {
    QTest::addColumn<FieldKind>("kind");
    QTest::addColumn<QString>("json");
    QTest::newRow("shape") << FieldKind::Integers << "[8192,8192]";
    QTest::newRow("scalar") << FieldKind::Integers << "[]";
    QTest::newRow("names") << FieldKind::Names << R"(["dp_replicate","dp_shard","tp"])";
    QTest::newRow("placements") << FieldKind::Placements
                                << R"j(["R","_StridedShard(dim=0, sf=8)","Shard(0)"])j";
    QTest::newRow("cap") << FieldKind::OptionalInt << "2000000000";
    QTest::newRow("dtype") << FieldKind::DType << R"("bf16")";
    QTest::newRow("flag") << FieldKind::Flag << "false";
}

void TestFieldText::shownTextReadsBack() {
    QFETCH(FieldKind, kind);
    QFETCH(QString, json);
    const Json value = Json::parse(json.toStdString());
    ParsedField parsed = parseFieldText(kind, fieldText(kind, value));
    QVERIFY2(parsed.ok(), qPrintable(parsed.error));
    QCOMPARE(QString::fromStdString(parsed.value->dump()), json);
}

QTEST_APPLESS_MAIN(TestFieldText)
#include "tst_field_text.moc"

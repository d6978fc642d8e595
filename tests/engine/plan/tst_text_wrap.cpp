// SPDX-License-Identifier: Apache-2.0
// The line wrapper of the text plan: lists break after a separator, keep
// their indentation one step deeper, and never split a word.
#include <QtTest>

#include <sstream>

#include "export/text_wrap.h"

using namespace hsdp;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

}  // namespace

class TestTextWrap : public QObject {
    Q_OBJECT
private slots:
    void shortLinesAreUntouched() {
        const std::string text = "Plan\n  a: 1\n\n  b: 2\n";
        QCOMPARE(wrapText(text, 100), text);
    }

    void listBreaksAfterItsSeparatorWithADeeperIndent() {
        std::string line = "    owners:";
        for (int i = 0; i < 30; ++i) line += " #" + std::to_string(i) + " w (64) -> (0);";
        const auto out = lines(wrapText(line + "\n", 60));
        QVERIFY(out.size() > 3);
        std::string joined;
        for (size_t i = 0; i < out.size(); ++i) {
            QVERIFY2(out[i].size() <= 60, out[i].c_str());
            if (i > 0) QVERIFY2(out[i].rfind("        #", 0) == 0, out[i].c_str());
            if (i + 1 < out.size()) QVERIFY2(out[i].back() == ';', out[i].c_str());
            joined += (i ? " " : "") + out[i].substr(i ? 8 : 0);
        }
        QCOMPARE(joined, line);  // nothing lost or reordered
    }

    void aWordLongerThanTheWidthStaysWhole() {
        const std::string word(150, 'x');
        const auto out = lines(wrapText("  key: " + word + " tail\n", 100));
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(out[0], "  key: " + word);
        QCOMPARE(out[1], std::string("      tail"));
    }

    void narrowWidthsTerminate() {
        // Every width, even one inside the indentation, ends with nothing lost.
        const std::string text =
            "                          deep: a b c d e f g h i j k l m n o p\n";
        for (size_t width = 1; width < 70; ++width) {
            const std::string out = wrapText(text, width);
            std::string words;
            for (char c : out)
                if (c != ' ' && c != '\n') words += c;
            QCOMPARE(words, std::string("deep:abcdefghijklmnop"));
        }
    }
};

QTEST_APPLESS_MAIN(TestTextWrap)
#include "tst_text_wrap.moc"

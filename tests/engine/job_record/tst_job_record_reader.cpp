// SPDX-License-Identifier: Apache-2.0
#include <QtTest>
class Placeholder : public QObject {
    Q_OBJECT
};
QTEST_APPLESS_MAIN(Placeholder)
#include "tst_job_record_reader.moc"

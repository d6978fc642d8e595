// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace hsdp::testing {

// A field of this process's /proc/self/status in bytes ("VmRSS", the
// resident set; "VmHWM", its peak), or -1 where there is none (not Linux).
inline qint64 processStatusBytes(const char* field) {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return -1;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').front().toLongLong() * 1024;
    return -1;
}

}  // namespace hsdp::testing

/* stream.h — the stream layer as the jobs see it: the chunk pipeline
 * (pipeline.h), where its chunks come from (source.h), and -P's progress
 * line (progress.h).  Under it ops, io and core. */
#ifndef SC_STREAM_H
#define SC_STREAM_H

#include "stream/pipeline.h"
#include "stream/progress.h"
#include "stream/source.h"

#endif

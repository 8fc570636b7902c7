package dev.tokentime.spark;

import java.io.Serializable;

/**
 * One input file of the job: what an executor needs to read it.
 *
 * @param sourceId the file's source_id (its position in the sorted listing, from 1)
 * @param path the file's URI (file:, hdfs:, s3a:, ...)
 * @param bytes its size as stored
 * @param modifiedMs its modification time (the year of logs that omit it)
 * @param defaultRun the run of records that name none (--run, else the parent folder's name)
 */
public record FileTask(int sourceId, String path, long bytes, long modifiedMs, String defaultRun)
    implements Serializable {}

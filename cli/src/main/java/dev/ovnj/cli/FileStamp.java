package dev.ovnj.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * When a file was last modified and how long it was. Polling this is simpler and more reliable
 * than a WatchService for a single file that editors and ConfigMap mounts replace by rename.
 *
 * @param modified last modification time, or null when the file cannot be read
 * @param size its size in bytes
 */
record FileStamp(FileTime modified, long size) {

    /**
     * Reads a file's stamp.
     *
     * @param file the file
     * @return its stamp; a missing file has a stamp of its own, so its return counts as a change
     */
    static FileStamp of(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new FileStamp(a.lastModifiedTime(), a.size());
        } catch (IOException e) {
            return new FileStamp(null, -1);
        }
    }
}

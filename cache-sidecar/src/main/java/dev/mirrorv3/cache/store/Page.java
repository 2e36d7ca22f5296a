package dev.mirrorv3.cache.store;

/**
 * One byte array of records. Its bytes up to {@link #fill} never change once a slot points to them; {@link #gen}
 * tells an address into this page from one into an earlier page of the same number.
 */
final class Page {
    final byte[] data;
    final int number;
    final int gen;
    /** Bytes written (writer only). */
    int fill;
    /** Bytes of records a slot still points to (writer only). */
    int live;

    Page(byte[] data, int number, int gen) {
        this.data = data;
        this.number = number;
        this.gen = gen;
    }
}

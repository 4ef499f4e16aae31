/** Certificates generated per test run for TLS ({@code pssl:}/{@code ssl:}) servers and clients. */
package dev.ovnj.testkit.tls;

/** The {@code ovnj} command-line tool. */
package dev.ovnj.cli;

"""Peaks in a genome: reading the genome and peak files, negatives, variants.

Modules
-------
reference
    `open_genome`, `Genome`: a FASTA genome (plain or bgzip) read by position.
peaks
    `read_peaks` (BED3, BED6, narrowPeak), windows around summits, `extract`.
shuffle
    Dinucleotide shuffles that keep the dinucleotide counts exactly.
negatives
    Genomic background windows matched to the positives' GC and repeat content
    (its matching engine and numba kernels: ``_negatives``).
vcf
    VCF files and tables of ref/alt sequence pairs.
"""

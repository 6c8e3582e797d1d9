//! Dump files on disk: written under a temporary name and renamed into place only once complete (so an interrupted
//! dump never leaves a cut-short file under a name that looks complete), optionally gzip-compressed; and read back
//! a document at a time, by each document's length prefix.

use super::layout::Compression;
use crate::base::error::{BackupError, Error, Result, MAX_STATEMENT_SIZE};
use bson::RawDocumentBuf;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The error of `action` on `path`.
pub(crate) fn io_error<'p>(path: &'p Path, action: &'static str) -> impl FnOnce(io::Error) -> Error + 'p {
    move |source| BackupError::Io { path: path.to_owned(), action, source }.into()
}

/// Where a file is written until it is complete: beside it, hidden, with a suffix no dump file has
/// (`.order_header.bson.partial`), so neither odm nor mongorestore takes it for a collection.
pub(crate) fn partial_name(dest: &Path) -> PathBuf {
    let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    dest.with_file_name(format!(".{name}.partial"))
}

enum Sink {
    Plain(BufWriter<File>),
    Gzip(GzEncoder<BufWriter<File>>),
}

/// A dump file being written: bytes go to its partial name; [`Output::finish`] moves it to its own name. Dropped
/// unfinished (an error, a dropped future), the partial file is removed.
pub(crate) struct Output {
    dest: PathBuf,
    partial: PathBuf,
    sink: Option<Sink>,
}

impl Output {
    /// Starts writing `dest`, compressed or not. Fails when `dest` exists: a dump never overwrites a file.
    pub(crate) fn create(dest: PathBuf, compression: Compression) -> Result<Output> {
        if dest.exists() {
            return Err(BackupError::Exists { path: dest }.into());
        }
        let partial = partial_name(&dest);
        // A partial file left by a killed dump is of no use: start it again.
        let file = File::create(&partial).map_err(io_error(&partial, "create"))?;
        let writer = BufWriter::with_capacity(1 << 16, file);
        let sink = match compression {
            Compression::Gzip => Sink::Gzip(GzEncoder::new(writer, flate2::Compression::default())),
            Compression::None => Sink::Plain(writer),
        };
        Ok(Output { dest, partial, sink: Some(sink) })
    }

    /// Appends `bytes`.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> Result<()> {
        let written = match self.sink.as_mut() {
            Some(Sink::Plain(w)) => w.write_all(bytes),
            Some(Sink::Gzip(w)) => w.write_all(bytes),
            None => Ok(()),
        };
        written.map_err(io_error(&self.partial, "write"))
    }

    /// Flushes the file to disk and gives it its name; returns the file's size in bytes.
    pub(crate) fn finish(mut self) -> Result<u64> {
        let writer = match self.sink.take() {
            Some(Sink::Plain(w)) => w,
            Some(Sink::Gzip(w)) => w.finish().map_err(io_error(&self.partial, "write"))?,
            None => return Ok(0),
        };
        let file = writer.into_inner().map_err(|e| io_error(&self.partial, "write")(e.into_error()))?;
        file.sync_all().map_err(io_error(&self.partial, "flush"))?;
        let size = file.metadata().map_err(io_error(&self.partial, "stat"))?.len();
        drop(file);
        if self.dest.exists() {
            // Another process wrote it meanwhile: keep theirs (the partial file is removed on drop).
            return Err(BackupError::Exists { path: self.dest.clone() }.into());
        }
        fs::rename(&self.partial, &self.dest).map_err(io_error(&self.dest, "rename a finished file to"))?;
        // The rename is durable once the directory is (best effort: not every file system syncs directories).
        if let Some(dir) = self.dest.parent() {
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(size)
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if self.sink.is_some() {
            self.sink = None;
            let _ = fs::remove_file(&self.partial);
        }
    }
}

/// Opens `path` for reading, decompressing it when its name ends in `.gz`.
pub(crate) fn open(path: &Path) -> Result<Box<dyn Read + Send>> {
    let file = File::open(path).map_err(io_error(path, "open"))?;
    let reader = BufReader::with_capacity(1 << 16, file);
    Ok(if path.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::new(MultiGzDecoder::new(reader)))
    } else {
        Box::new(reader)
    })
}

/// Reads a whole (small) file, decompressing it when its name ends in `.gz`.
pub(crate) fn read_all(path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path)?.read_to_end(&mut bytes).map_err(io_error(path, "read"))?;
    Ok(bytes)
}

/// The documents of a `.bson` file (concatenated BSON documents, each starting with its length), one at a time.
pub(crate) struct Documents {
    path: PathBuf,
    reader: Box<dyn Read + Send>,
    /// Bytes read so far (of the decompressed stream): where the next document starts.
    offset: u64,
    /// Whole documents read so far.
    read: u64,
}

/// What the check of a whole documents file found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Scanned {
    /// Its documents.
    pub(crate) documents: u64,
    /// Their bytes (decompressed).
    pub(crate) bytes: u64,
}

impl Documents {
    /// Opens `path` (`.bson` or `.bson.gz`).
    pub(crate) fn open(path: &Path) -> Result<Documents> {
        Ok(Documents { path: path.to_owned(), reader: open(path)?, offset: 0, read: 0 })
    }

    /// Walks the whole file by the documents' length prefixes, without decoding them (cheap: a restore checks every
    /// file this way before its first write): how many documents and bytes it holds, or where it is cut short.
    pub(crate) fn scan(path: &Path) -> Result<Scanned> {
        let mut documents = Documents::open(path)?;
        while let Some(len) = documents.next_length()? {
            let skipped = io::copy(&mut (&mut documents.reader).take(len as u64 - 4), &mut io::sink())
                .map_err(io_error(path, "read"))?;
            if skipped < len as u64 - 4 {
                return Err(documents.damaged(cut_short(skipped as usize + 4, len)));
            }
            documents.advance(len);
        }
        Ok(Scanned { documents: documents.read, bytes: documents.offset })
    }

    /// The next document; `None` at the end of the file.
    pub(crate) fn next_document(&mut self) -> Result<Option<RawDocumentBuf>> {
        let Some(len) = self.next_length()? else { return Ok(None) };
        let mut bytes = vec![0u8; len];
        bytes[..4].copy_from_slice(&(len as i32).to_le_bytes());
        let got = read_up_to(&mut self.reader, &mut bytes[4..]).map_err(io_error(&self.path, "read"))?;
        if got < len - 4 {
            return Err(self.damaged(cut_short(got + 4, len)));
        }
        let doc =
            RawDocumentBuf::from_bytes(bytes).map_err(|e| self.damaged(format!("a document is not BSON: {e}")))?;
        self.advance(len);
        Ok(Some(doc))
    }

    /// The length the next document declares; `None` at the end of the file.
    fn next_length(&mut self) -> Result<Option<usize>> {
        let mut prefix = [0u8; 4];
        let got = read_up_to(&mut self.reader, &mut prefix).map_err(io_error(&self.path, "read"))?;
        if got == 0 {
            return Ok(None);
        }
        if got < 4 {
            return Err(self.damaged(format!("the file ends inside a document's length ({got} of its 4 bytes)")));
        }
        let len = i32::from_le_bytes(prefix);
        match usize::try_from(len).ok().filter(|&l| (5..=MAX_STATEMENT_SIZE).contains(&l)) {
            Some(len) => Ok(Some(len)),
            None => Err(self.damaged(format!("a document declares {len} bytes, not a BSON document's length"))),
        }
    }

    /// Counts a whole document of `len` bytes as read.
    fn advance(&mut self, len: usize) {
        self.offset += len as u64;
        self.read += 1;
    }

    /// The error of damage at the current document.
    fn damaged(&self, reason: String) -> Error {
        BackupError::Damaged { path: self.path.clone(), offset: self.offset, documents: self.read, reason }.into()
    }
}

/// The reason given for a document cut short: `got` of its `len` bytes.
fn cut_short(got: usize, len: usize) -> String {
    format!("the document there is cut short ({got} of its {len} bytes)")
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn read_up_to(reader: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_has_its_name_only_once_complete_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("odm-backup-files-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("dir");
        for (compression, name) in [(Compression::None, "c.bson"), (Compression::Gzip, "c.bson.gz")] {
            let dest = dir.join(name);
            let mut out = Output::create(dest.clone(), compression).expect("create");
            let docs = [bson::rawdoc! { "_id": 1 }, bson::rawdoc! { "_id": 2, "s": "x" }];
            for d in &docs {
                out.write(d.as_bytes()).expect("write");
            }
            assert!(!dest.exists() && partial_name(&dest).exists());
            out.finish().expect("finish");
            assert!(dest.exists() && !partial_name(&dest).exists());
            let mut read = Documents::open(&dest).expect("open");
            for d in &docs {
                assert_eq!(read.next_document().expect("reads").as_ref(), Some(d));
            }
            assert_eq!(read.next_document().expect("end"), None);
            assert!(
                matches!(Output::create(dest, compression), Err(Error::Backup(b)) if matches!(*b, BackupError::Exists { .. }))
            );
        }
        // Dropped unfinished, nothing is left.
        let dest = dir.join("d.bson");
        let mut out = Output::create(dest.clone(), Compression::None).expect("create");
        out.write(bson::rawdoc! { "_id": 1 }.as_bytes()).expect("write");
        drop(out);
        assert!(!dest.exists() && !partial_name(&dest).exists());
        // A file cut inside a document is refused, naming the file.
        let doc = bson::rawdoc! { "_id": 1, "s": "abc" };
        fs::write(&dest, &doc.as_bytes()[..doc.as_bytes().len() - 2]).expect("write");
        let err = Documents::open(&dest).expect("open").next_document().expect_err("cut short").to_string();
        assert!(err.contains("d.bson is not whole: at byte 0") && err.contains("cut short"), "{err}");
        // The check of the whole file finds the same, after the whole documents before it.
        let mut bytes = docs_bytes();
        let whole = bytes.len() as u64;
        assert_eq!(Documents::scan_ok(&dest, &bytes), Scanned { documents: 2, bytes: whole });
        bytes.extend_from_slice(&doc.as_bytes()[..7]);
        fs::write(&dest, &bytes).expect("write");
        match Documents::scan(&dest) {
            Err(Error::Backup(b)) => match *b {
                BackupError::Damaged { offset, documents, .. } => assert_eq!((offset, documents), (whole, 2)),
                other => panic!("expected Damaged, got {other}"),
            },
            other => panic!("expected Damaged, got {other:?}"),
        }
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    /// Two small documents, one after the other.
    fn docs_bytes() -> Vec<u8> {
        [bson::rawdoc! { "_id": 1 }, bson::rawdoc! { "_id": 2, "s": "x" }]
            .iter()
            .flat_map(|d| d.as_bytes().to_vec())
            .collect()
    }

    impl Documents {
        /// Writes `bytes` to `path` and scans it, which must succeed.
        fn scan_ok(path: &Path, bytes: &[u8]) -> Scanned {
            fs::write(path, bytes).expect("write");
            Documents::scan(path).expect("whole")
        }
    }
}

//! Syzygy endgame tablebases: loading the folders named by `SyzygyPath`,
//! probing win/draw/loss (WDL) and distance to zeroing (DTZ) for a board,
//! and ranking the root moves of a position in the tables.
//!
//! The files are read by `shakmaty-syzygy`, which needs its own position
//! type; a board is converted only when it has few enough pieces to be in
//! the tables, which is cheap next to the file reads of a probe.

use crate::score::{DRAW, TB_WIN};
use crate::tt::Bound;
use chess::{Board, Color, Move, PieceKind, Position};
use shakmaty::{
    Bitboard as SBitboard, ByColor, ByRole, CastlingMode, Chess, FromSetup, Setup,
    Square as SSquare,
};
use shakmaty_syzygy::Tablebase;
use std::collections::HashSet;
use std::fmt;
use std::io::Read;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The first bytes of every WDL and DTZ file of the standard chess tables.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Root ranks, as Stockfish ranks them: wins above draws above losses,
/// wins that the fifty-move rule may spoil below certain ones.
const MAX_DTZ: i32 = 1 << 18;

/// Win/draw/loss for the side to move, just after a capture or pawn move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    /// A loss that the fifty-move rule turns into a draw.
    BlessedLoss,
    Draw,
    /// A win that the fifty-move rule turns into a draw.
    CursedWin,
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), the convention of the tables and of python-chess.
    pub fn value(self) -> i32 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    fn from_tables(wdl: shakmaty_syzygy::Wdl) -> Wdl {
        match wdl {
            shakmaty_syzygy::Wdl::Loss => Wdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => Wdl::Win,
        }
    }

    fn negate(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// Why a position could not be probed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// The tables hold no position with castling rights.
    Castling,
    /// More pieces than the tables hold, or a material without its file.
    NotInTables,
    /// A file could not be read or is corrupt.
    Table(String),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Castling => write!(f, "the tables have no position with castling rights"),
            ProbeError::NotInTables => write!(f, "the position is not in the tables"),
            ProbeError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ProbeError {}

impl From<shakmaty_syzygy::SyzygyError> for ProbeError {
    fn from(e: shakmaty_syzygy::SyzygyError) -> ProbeError {
        use shakmaty_syzygy::SyzygyError;
        match e {
            SyzygyError::Castling => ProbeError::Castling,
            SyzygyError::TooManyPieces | SyzygyError::MissingTable { .. } => {
                ProbeError::NotInTables
            }
            SyzygyError::ProbeFailed {
                metric,
                material,
                error,
            } => {
                use shakmaty_syzygy::ProbeError as Why;
                // Not the crate's own message: a corrupt table's carries a
                // backtrace.
                let why = match *error {
                    Why::Read { error } => format!("cannot read the file: {error}"),
                    Why::Magic { .. } => "not a Syzygy file (bad header)".to_string(),
                    Why::CorruptedTable { .. } => "the file is truncated or corrupt".to_string(),
                };
                ProbeError::Table(format!("{metric} table {material}: {why}"))
            }
        }
    }
}

/// A problem with one folder or file of `SyzygyPath`; the other tables are
/// still used.
#[derive(Debug)]
pub enum LoadError {
    NotAFolder(PathBuf),
    Unreadable(PathBuf, std::io::Error),
    Corrupt(PathBuf, &'static str),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotAFolder(p) => write!(f, "tablebase folder {} not found", p.display()),
            LoadError::Unreadable(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            LoadError::Corrupt(p, why) => {
                write!(f, "tablebase file {} is corrupt: {why}", p.display())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// The tables found in the folders of `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    wdl_files: usize,
    dtz_files: usize,
    /// Each failing table's first failure, once: those not yet reported,
    /// and every table that has failed.
    failures: Mutex<(Vec<String>, HashSet<String>)>,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())
    }
}

/// What loading `SyzygyPath` found: the tables (if any) and every problem.
pub struct Loaded {
    pub tables: Option<Tablebases>,
    pub problems: Vec<LoadError>,
}

impl Tablebases {
    /// Reads the table files of every folder in `path` (separated by `:`,
    /// or `;` on Windows as Stockfish does). Files are checked by size and
    /// header here; their contents are read lazily when probed.
    pub fn load(path: &str) -> Loaded {
        let separator = if cfg!(windows) { ';' } else { ':' };
        let mut tables = Tablebases {
            tables: Tablebase::new(),
            wdl_files: 0,
            dtz_files: 0,
            failures: Mutex::default(),
        };
        let mut problems = Vec::new();
        for folder in path
            .split(separator)
            .map(str::trim)
            .filter(|f| !f.is_empty())
        {
            tables.add_folder(Path::new(folder), &mut problems);
        }
        let found = tables.wdl_files + tables.dtz_files > 0;
        Loaded {
            tables: found.then_some(tables),
            problems,
        }
    }

    fn add_folder(&mut self, folder: &Path, problems: &mut Vec<LoadError>) {
        if !folder.is_dir() {
            problems.push(LoadError::NotAFolder(folder.to_path_buf()));
            return;
        }
        let entries = match std::fs::read_dir(folder) {
            Ok(e) => e,
            Err(e) => return problems.push(LoadError::Unreadable(folder.to_path_buf(), e)),
        };
        let mut files: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        files.sort();
        for file in files {
            let magic = match file.extension().and_then(|e| e.to_str()) {
                Some("rtbw") => WDL_MAGIC,
                Some("rtbz") => DTZ_MAGIC,
                _ => continue,
            };
            if let Err(problem) = self.add_file(&file, magic) {
                problems.push(problem);
            }
        }
    }

    fn add_file(&mut self, file: &Path, magic: [u8; 4]) -> Result<(), LoadError> {
        let mut header = [0u8; 4];
        std::fs::File::open(file)
            .and_then(|mut f| f.read_exact(&mut header))
            .map_err(|e| LoadError::Unreadable(file.to_path_buf(), e))?;
        if header != magic {
            return Err(LoadError::Corrupt(file.to_path_buf(), "wrong header"));
        }
        self.tables.add_file(file).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidInput => {
                LoadError::Corrupt(file.to_path_buf(), "not a table name of standard chess")
            }
            std::io::ErrorKind::InvalidData => {
                LoadError::Corrupt(file.to_path_buf(), "unexpected file size")
            }
            _ => LoadError::Unreadable(file.to_path_buf(), e),
        })?;
        if magic == WDL_MAGIC {
            self.wdl_files += 1;
        } else {
            self.dtz_files += 1;
        }
        Ok(())
    }

    /// The most pieces of any table.
    pub fn max_pieces(&self) -> u32 {
        self.tables.max_pieces() as u32
    }

    /// Stockfish's wording, so that GUIs and scripts that read it understand.
    pub fn summary(&self) -> String {
        format!(
            "found {} WDL and {} DTZ tablebase files (up to {}-man)",
            self.wdl_files,
            self.dtz_files,
            self.max_pieces()
        )
    }

    /// The failures of tables not reported before: each failing table is
    /// named once, however often it is probed.
    pub fn take_failures(&self) -> Vec<String> {
        self.failures
            .lock()
            .map(|mut f| std::mem::take(&mut f.0))
            .unwrap_or_default()
    }

    fn note(&self, e: ProbeError) -> ProbeError {
        if let ProbeError::Table(text) = &e {
            if let Ok(mut failures) = self.failures.lock() {
                let (pending, seen) = &mut *failures;
                if seen.insert(text.clone()) {
                    pending.push(text.clone());
                }
            }
        }
        e
    }

    /// The WDL of `board` as if it had just been reached by a capture or
    /// pawn move (its halfmove clock is not looked at).
    pub fn wdl(&self, board: &Board) -> Result<Wdl, ProbeError> {
        let pos = to_chess(board)?;
        self.tables
            .probe_wdl_after_zeroing(&pos)
            .map(Wdl::from_tables)
            .map_err(|e| self.note(e.into()))
    }

    /// Plies to the next capture or pawn move with best play (positive when
    /// the side to move wins), as the tables store it: some values are
    /// rounded, as in every Syzygy DTZ file.
    pub fn dtz(&self, board: &Board) -> Result<i32, ProbeError> {
        let pos = to_chess(board)?;
        self.tables
            .probe_dtz(&pos)
            .map(|d| d.ignore_rounding().0)
            .map_err(|e| self.note(e.into()))
    }

    /// Ranks the root moves of a position in the tables, as Stockfish does:
    /// wins by DTZ (the fastest safe progress first), then wins that the
    /// fifty-move rule may spoil, draws, and losses (the longest first). DTZ
    /// tables give the ranks; without them, WDL does, coarser.
    /// `is_draw` tells whether a move draws by the rules (repetition, fifty
    /// moves) whatever the tables say.
    pub fn rank_root_moves(
        &self,
        root: &Board,
        moves: &[Move],
        rule50: bool,
        is_draw: impl Fn(Move) -> bool,
    ) -> Result<RootRanking, ProbeError> {
        match self.rank_by_dtz(root, moves, rule50, &is_draw) {
            Ok(r) => Ok(r),
            Err(ProbeError::Castling) => Err(ProbeError::Castling),
            Err(_) => self.rank_by_wdl(root, moves, rule50),
        }
    }

    fn rank_by_dtz(
        &self,
        root: &Board,
        moves: &[Move],
        rule50: bool,
        is_draw: &impl Fn(Move) -> bool,
    ) -> Result<RootRanking, ProbeError> {
        let cnt50 = i32::from(root.halfmove_clock());
        let bound = if rule50 { MAX_DTZ / 2 - 100 } else { 1 };
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = root.clone();
            child.make_move(m);
            // DTZ counted from the root, the move itself included.
            let mut dtz = if child.halfmove_clock() == 0 {
                match self.wdl(&child)?.negate() {
                    Wdl::Win => 1,
                    Wdl::CursedWin => 101,
                    Wdl::Draw => 0,
                    Wdl::BlessedLoss => -101,
                    Wdl::Loss => -1,
                }
            } else if is_draw(m) {
                0
            } else {
                let d = -self.dtz(&child)?;
                d + d.signum()
            };
            if dtz == 2 && child.in_check() && !child.has_legal_move() {
                dtz = 1;
            }
            let rank = if dtz > 0 {
                if dtz + cnt50 <= 99 {
                    MAX_DTZ - dtz
                } else {
                    MAX_DTZ / 2 - (dtz + cnt50)
                }
            } else if dtz < 0 {
                if -dtz * 2 + cnt50 < 100 {
                    -MAX_DTZ - dtz
                } else {
                    -MAX_DTZ / 2 + (-dtz + cnt50)
                }
            } else {
                0
            };
            let score = if rank >= bound {
                TB_WIN
            } else if rank > 0 {
                // A win the fifty-move rule spoils: a draw, a little better.
                (rank - (MAX_DTZ / 2 - 200)).max(3) * 100 / 200
            } else if rank == 0 {
                DRAW
            } else if rank > -bound {
                (rank + (MAX_DTZ / 2 - 200)).min(-3) * 100 / 200
            } else {
                -TB_WIN
            };
            ranked.push(RankedMove { mv: m, rank, score });
        }
        Ok(RootRanking::new(ranked, true))
    }

    fn rank_by_wdl(
        &self,
        root: &Board,
        moves: &[Move],
        rule50: bool,
    ) -> Result<RootRanking, ProbeError> {
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = root.clone();
            child.make_move(m);
            let wdl = self.wdl(&child)?.negate();
            let rank = match wdl {
                Wdl::Loss => -MAX_DTZ,
                Wdl::BlessedLoss => -MAX_DTZ + 101,
                Wdl::Draw => 0,
                Wdl::CursedWin => MAX_DTZ - 101,
                Wdl::Win => MAX_DTZ,
            };
            let score = match (wdl, rule50) {
                (Wdl::Win, _) | (Wdl::CursedWin, false) => TB_WIN,
                (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => -TB_WIN,
                (Wdl::CursedWin, true) => DRAW + 2,
                (Wdl::BlessedLoss, true) => DRAW - 2,
                (Wdl::Draw, _) => DRAW,
            };
            ranked.push(RankedMove { mv: m, rank, score });
        }
        Ok(RootRanking::new(ranked, false))
    }
}

/// A root move as the tables see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// Higher is better; moves of equal rank are equally good by the tables.
    pub rank: i32,
    /// The move's score from the root's side: `TB_WIN`, a draw, `-TB_WIN`,
    /// or a small margin around a draw for results the fifty-move rule
    /// spoils.
    pub score: i32,
}

/// The root moves ranked by the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// Every root move, the best-ranked first (ties in their given order).
    pub moves: Vec<RankedMove>,
    /// Whether DTZ tables ranked them (else WDL only).
    pub by_dtz: bool,
}

impl RootRanking {
    fn new(mut moves: Vec<RankedMove>, by_dtz: bool) -> RootRanking {
        moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
        RootRanking { moves, by_dtz }
    }

    /// What the tables promise the root: the best-ranked moves' score.
    pub fn score(&self) -> i32 {
        self.moves.first().map_or(DRAW, |m| m.score)
    }

    /// The moves that keep the best result the tables promise.
    pub fn best(&self) -> impl Iterator<Item = Move> + '_ {
        let best = self.moves.first().map(|m| m.rank);
        self.moves
            .iter()
            .take_while(move |m| Some(m.rank) == best)
            .map(|m| m.mv)
    }
}

/// `board` as the tables' position type. Only called with few pieces.
fn to_chess(board: &Board) -> Result<Chess, ProbeError> {
    if !board.castling_rights().is_empty() {
        return Err(ProbeError::Castling);
    }
    let bb = |b: chess::Bitboard| SBitboard(b.0);
    let role = |k: PieceKind| bb(board.pieces(k));
    let by_role = ByRole {
        pawn: role(PieceKind::Pawn),
        knight: role(PieceKind::Knight),
        bishop: role(PieceKind::Bishop),
        rook: role(PieceKind::Rook),
        queen: role(PieceKind::Queen),
        king: role(PieceKind::King),
    };
    let by_color = ByColor {
        white: bb(board.colored(Color::White)),
        black: bb(board.colored(Color::Black)),
    };
    let placement = shakmaty::Board::try_from_bitboards(by_role, by_color)
        .map_err(|_| ProbeError::NotInTables)?;
    let setup = Setup {
        board: placement,
        turn: match board.side_to_move() {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        },
        ep_square: board
            .en_passant()
            .and_then(|sq| SSquare::try_from(sq.index() as u32).ok()),
        halfmoves: u32::from(board.halfmove_clock()),
        fullmoves: NonZeroU32::new(u32::from(board.fullmove_number())).unwrap_or(NonZeroU32::MIN),
        ..Setup::empty()
    };
    match Chess::from_setup(setup, CastlingMode::Chess960) {
        Ok(pos) => Ok(pos),
        // An en passant square that no pawn could have passed is dropped.
        Err(e) => e
            .ignore_invalid_ep_square()
            .map_err(|_| ProbeError::NotInTables),
    }
}

/// The Syzygy options (Stockfish's names and meaning) with the tables that
/// `SyzygyPath` found.
#[derive(Clone)]
pub struct Syzygy {
    pub tables: Option<Arc<Tablebases>>,
    /// Positions with as many pieces as the largest tables are probed only
    /// from this remaining depth on (fewer pieces: at any depth).
    pub probe_depth: i32,
    /// Whether wins and losses that the fifty-move rule spoils count as draws.
    pub rule50: bool,
    /// Positions with more pieces than this are not probed.
    pub probe_limit: u32,
}

impl Default for Syzygy {
    fn default() -> Syzygy {
        Syzygy {
            tables: None,
            probe_depth: 1,
            rule50: true,
            probe_limit: 7,
        }
    }
}

impl Syzygy {
    /// The most pieces of a position that is probed (0: none).
    pub fn cardinality(&self) -> u32 {
        self.tables
            .as_ref()
            .map_or(0, |t| t.max_pieces().min(self.probe_limit))
    }

    /// A table result inside the search: its score from the side to move
    /// `ply` plies from the root, and what kind of bound that score is.
    /// Wins and losses the fifty-move rule spoils are scored a hair from a
    /// draw when the rule counts, else as wins and losses.
    pub fn score(&self, wdl: Wdl, ply: usize) -> (i32, Bound) {
        let draw_band = i32::from(self.rule50);
        let v = wdl.value();
        if v < -draw_band {
            (-TB_WIN + ply as i32, Bound::Upper)
        } else if v > draw_band {
            (TB_WIN - ply as i32, Bound::Lower)
        } else {
            (DRAW + 2 * v * draw_band, Bound::Exact)
        }
    }

    /// The root of a search in the tables: its moves ranked by them, so
    /// that the search chooses among those that keep the best result the
    /// tables promise (by DTZ, the quickest safe progress), further MultiPV
    /// lines coming from the next ranks down. The search then probes no
    /// further unless only WDL tables ranked the moves and the root is won,
    /// where the probes help find the way.
    pub(crate) fn probe_root(&self, position: &Position, root_moves: &[Move]) -> RootProbe {
        let root = position.board();
        let mut probe = RootProbe {
            moves: Vec::new(),
            cardinality: self.cardinality(),
            hits: 0,
        };
        let Some(tables) = self.tables.as_deref().filter(|_| {
            !root_moves.is_empty()
                && root.occupied().count() <= probe.cardinality
                && root.castling_rights().is_empty()
        }) else {
            return probe;
        };
        let drawn_by_rule = |m: Move| {
            let mut after = position.clone();
            after.make_move(m);
            after.is_fifty_move_draw() || after.is_repetition(after.ply())
        };
        if let Ok(ranking) = tables.rank_root_moves(root, root_moves, self.rule50, drawn_by_rule) {
            probe.hits = root_moves.len() as u64;
            if ranking.by_dtz || ranking.score() <= DRAW {
                probe.cardinality = 0;
            }
            probe.moves = ranking.moves;
        }
        probe
    }
}

/// What the tables say of a search's root, and how far the search probes.
pub(crate) struct RootProbe {
    /// The root moves ranked by the tables, best first; empty when the root
    /// is not in them.
    pub moves: Vec<RankedMove>,
    /// Positions with at most this many pieces are probed (0: none).
    pub cardinality: u32,
    /// The probes ranking the moves took.
    pub hits: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/syzygy");

    fn tables() -> Tablebases {
        let loaded = Tablebases::load(TABLES);
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        loaded.tables.expect("the test tables")
    }

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    /// A folder of its own under the system's temporary folder.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hoeven-tb-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_test_tables_load_and_give_python_chess_values() {
        let t = tables();
        assert_eq!(
            t.summary(),
            "found 35 WDL and 35 DTZ tablebase files (up to 4-man)"
        );
        // The values python-chess's chess.syzygy gives for these positions.
        for (fen, wdl, dtz) in [
            ("8/8/8/8/8/2k5/8/KR6 w - - 0 1", 2, 27),
            ("8/8/8/8/8/2k5/8/KR6 b - - 0 1", -2, -30),
            ("8/8/8/8/8/2k5/8/KBN5 w - - 0 1", 2, 58),
            ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", 0, 0),
            ("8/8/8/8/8/8/4k3/KQ5r w - - 0 1", 2, 1),
        ] {
            let b = board(fen);
            assert_eq!(t.wdl(&b).map(Wdl::value), Ok(wdl), "{fen}");
            assert_eq!(t.dtz(&b), Ok(dtz), "{fen}");
        }
    }

    #[test]
    fn castling_rights_and_too_many_pieces_are_not_probed() {
        let t = tables();
        assert_eq!(
            t.wdl(&board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")),
            Err(ProbeError::Castling)
        );
        assert_eq!(
            t.dtz(&board("4k3/8/8/8/8/8/8/RR2K2R w - - 0 1")),
            Err(ProbeError::NotInTables)
        );
    }

    #[test]
    fn a_root_in_the_tables_is_ranked_and_ends_the_probes_when_dtz_ranked_it() {
        let syzygy = Syzygy {
            tables: Some(Arc::new(tables())),
            ..Syzygy::default()
        };
        let probe_root = |fen: &str| {
            let position = Position::new(board(fen));
            let moves: Vec<Move> = position.board().legal_moves().iter().copied().collect();
            (syzygy.probe_root(&position, &moves), moves.len())
        };
        let (won, count) = probe_root("8/8/8/8/8/2k5/8/KR6 w - - 0 1");
        assert_eq!((won.moves.len(), won.hits), (count, count as u64));
        assert_eq!(won.cardinality, 0);
        // Castling rights keep a root out of the tables: nothing ranked, the
        // search probes as far as the tables reach.
        let (castling, _) = probe_root("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert!(castling.moves.is_empty() && castling.hits == 0);
        assert_eq!(castling.cardinality, 4);
    }

    #[test]
    fn a_won_root_ranks_its_quickest_safe_wins_first() {
        let t = tables();
        let root = board("8/8/8/8/8/2k5/8/KR6 w - - 0 1");
        let moves: Vec<Move> = root.legal_moves().iter().copied().collect();
        let ranking = t.rank_root_moves(&root, &moves, true, |_| false).unwrap();
        assert!(ranking.by_dtz && ranking.score() == TB_WIN);
        assert_eq!(ranking.moves.len(), moves.len(), "every move is ranked");
        assert!(ranking.moves.windows(2).all(|w| w[0].rank >= w[1].rank));
        let kept: Vec<Move> = ranking.best().collect();
        // Every kept move leaves the defender the shortest DTZ of any move.
        let after = |m: Move| {
            let mut c = root.clone();
            c.make_move(m);
            t.dtz(&c).unwrap()
        };
        let best = moves
            .iter()
            .map(|&m| after(m))
            .filter(|&d| d < 0)
            .max()
            .unwrap();
        assert!(!kept.is_empty() && kept.len() < moves.len());
        assert!(kept.iter().all(|&m| after(m) == best), "{best}");
        // Each move's score is what the tables say of it: here a win, or a
        // draw for a hanging rook.
        for r in &ranking.moves {
            let expected = match -after(r.mv).signum() {
                1 => TB_WIN,
                0 => DRAW,
                _ => -TB_WIN,
            };
            assert_eq!(r.score, expected, "{}", r.mv.to_uci(false));
        }
    }

    #[test]
    fn a_drawn_root_ranks_exactly_the_losing_moves_last() {
        let t = tables();
        let root = board("8/8/8/6r1/8/4k3/K7/5R2 w - - 0 1");
        let moves: Vec<Move> = root.legal_moves().iter().copied().collect();
        let ranking = t.rank_root_moves(&root, &moves, true, |_| false).unwrap();
        assert_eq!(ranking.score(), DRAW);
        // python-chess: f1f5 f1f4 f1f3 f1f2 f1g1 lose, the 14 others draw.
        let kept: Vec<Move> = ranking.best().collect();
        assert_eq!(kept.len(), moves.len() - 5);
        let losing = ["f1f5", "f1f4", "f1f3", "f1f2", "f1g1"];
        assert!(kept
            .iter()
            .all(|m| !losing.contains(&m.to_uci(false).as_str())));
        let last: Vec<&str> = ranking.moves[kept.len()..]
            .iter()
            .map(|r| {
                assert_eq!(r.score, -TB_WIN);
                losing
                    .iter()
                    .find(|&&l| l == r.mv.to_uci(false))
                    .copied()
                    .unwrap()
            })
            .collect();
        assert_eq!(last.len(), 5);
    }

    #[test]
    fn the_fifty_move_rule_option_decides_what_a_cursed_win_is_worth() {
        let mut s = Syzygy::default();
        assert_eq!(s.score(Wdl::CursedWin, 3), (2, Bound::Exact));
        assert_eq!(s.score(Wdl::BlessedLoss, 3), (-2, Bound::Exact));
        assert_eq!(s.score(Wdl::Win, 3), (TB_WIN - 3, Bound::Lower));
        s.rule50 = false;
        assert_eq!(s.score(Wdl::CursedWin, 3), (TB_WIN - 3, Bound::Lower));
        assert_eq!(s.score(Wdl::BlessedLoss, 4), (-TB_WIN + 4, Bound::Upper));
        assert_eq!(s.score(Wdl::Draw, 4), (DRAW, Bound::Exact));
    }

    #[test]
    fn the_probe_limit_and_the_tables_bound_the_probed_pieces() {
        let mut s = Syzygy::default();
        assert_eq!(s.cardinality(), 0);
        s.tables = Some(Arc::new(tables()));
        assert_eq!(s.cardinality(), 4);
        s.probe_limit = 3;
        assert_eq!(s.cardinality(), 3);
    }

    #[test]
    fn missing_folders_and_corrupt_files_are_reported_and_the_rest_used() {
        let dir = scratch("bad");
        let copy = |name: &str| {
            std::fs::copy(Path::new(TABLES).join(name), dir.join(name)).unwrap();
        };
        copy("KRvK.rtbw");
        copy("KRvK.rtbz");
        // Wrong header; right header but a size no table has.
        std::fs::write(dir.join("KQvK.rtbw"), vec![0u8; 64 + 16]).unwrap();
        let mut short = WDL_MAGIC.to_vec();
        short.resize(100, 0);
        std::fs::write(dir.join("KPvK.rtbw"), short).unwrap();
        std::fs::write(dir.join("notes.txt"), "not a table").unwrap();
        let missing = dir.join("missing");
        let loaded = Tablebases::load(&format!("{}:{}", missing.display(), dir.display()));
        let problems: Vec<String> = loaded.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("not found") && problems[0].contains("missing"));
        assert!(problems
            .iter()
            .any(|p| p.contains("KQvK.rtbw") && p.contains("header")));
        assert!(problems
            .iter()
            .any(|p| p.contains("KPvK.rtbw") && p.contains("size")));
        let t = loaded.tables.expect("the good tables");
        assert_eq!(
            t.summary(),
            "found 1 WDL and 1 DTZ tablebase files (up to 3-man)"
        );
        assert_eq!(t.wdl(&board("8/8/8/8/8/2k5/8/KR6 w - - 0 1")), Ok(Wdl::Win));
        assert!(Tablebases::load(&missing.display().to_string())
            .tables
            .is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_corrupt_table_body_fails_its_probes_and_is_reported_once() {
        let dir = scratch("body");
        let mut data = std::fs::read(Path::new(TABLES).join("KQvK.rtbw")).unwrap();
        // Keep the header, scramble the rest deterministically.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for byte in &mut data[64..] {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *byte = x as u8;
        }
        std::fs::write(dir.join("KQvK.rtbw"), data).unwrap();
        let t = Tablebases::load(&dir.display().to_string()).tables.unwrap();
        let b = board("8/8/8/8/8/2k5/8/KQ6 b - - 0 1");
        assert!(matches!(t.wdl(&b), Err(ProbeError::Table(_))));
        assert!(matches!(t.wdl(&b), Err(ProbeError::Table(_))));
        assert_eq!(
            t.take_failures(),
            vec!["wdl table KQvK: the file is truncated or corrupt"]
        );
        assert!(matches!(t.wdl(&b), Err(ProbeError::Table(_))));
        assert!(t.take_failures().is_empty(), "reported once");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

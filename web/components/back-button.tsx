/** The Back button of a detail or form screen. */
export function BackButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="btn btn-outline-secondary" onClick={onClick}>
      Back
    </button>
  );
}
